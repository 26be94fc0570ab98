/* stack-cut.exp: a block allocated six calls deep, below main, and one
   allocated in main itself (main, __libc_start_call_main,
   __libc_start_main_impl, _start: four frames).  */

#include <stdlib.h>

#define LEVEL(name, next)                                                     \
  __attribute__ ((noinline)) void *name (void)                                \
  {                                                                           \
    void *p = next ();                                                        \
    __asm__ volatile ("" : : "r" (p) : "memory");                             \
    return p;                                                                 \
  }

__attribute__ ((noinline)) void *
level6 (void)
{
  void *p = malloc (48);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}
LEVEL (level5, level6)
LEVEL (level4, level5)
LEVEL (level3, level4)
LEVEL (level2, level3)
LEVEL (level1, level2)

int
main (void)
{
  void *deep = level1 ();
  void *shallow = malloc (16);
  __asm__ volatile ("" : : "r" (shallow) : "memory");
  free (shallow);
  free (deep);
  return 0;
}
