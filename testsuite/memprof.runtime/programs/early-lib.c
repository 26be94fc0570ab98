/* A shared library whose constructor allocates before the runtime has
   initialised (see alloc-before-init.exp): it is initialised before
   libmemprof.so, and the executable carries no .preinit_array entry.  */

#include <stdlib.h>
#include <unistd.h>

char *early_block;

__attribute__ ((noinline)) static char *
early_site (void)
{
  char *p = malloc (300);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

__attribute__ ((constructor (101))) static void
early_constructor (void)
{
  early_block = early_site ();
  if (early_block)
    for (int i = 0; i < 300; i++)
      ((volatile char *) early_block)[i] = 'e';
  static const char msg[] = "early: allocated\n";
  write (2, msg, sizeof msg - 1);
}
