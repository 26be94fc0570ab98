/* The program options.exp runs under various MEMPROF_OPTIONS: five
   blocks from one site, and exit status 7, which the runtime must never
   change.  */

#include <stdlib.h>

__attribute__ ((noinline)) void *
site (void)
{
  void *p = malloc (100);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

int
main (void)
{
  for (int i = 0; i < 5; i++)
    free (site ());
  return 7;
}
