/* Program for merge.exp: argv[1] is the raw profile to write; argv[2] is
   N, the number of allocations at the loop site.  Each run also makes
   one allocation at a fixed site, and one at a site only odd N reach.  */
#include "rawgen.h"

__attribute__ ((noinline)) void
loop_site (int n)
{
  for (int i = 0; i < n; i++)
    rawgen_alloc (16 * (i + 1), 4, 10 * (i + 1), 25);
  __asm__ volatile ("" ::: "memory");
}

__attribute__ ((noinline)) void
fixed_site (void)
{
  rawgen_alloc (1000, 100, 7, 80);
  __asm__ volatile ("" ::: "memory");
}

__attribute__ ((noinline)) void
odd_site (void)
{
  rawgen_alloc (3, 0, 0, 0);
  __asm__ volatile ("" ::: "memory");
}

int
main (int argc, char **argv)
{
  int n = argc > 2 ? atoi (argv[2]) : 1;
  loop_site (n);
  fixed_site ();
  if (n % 2)
    odd_site ();
  rawgen_write (argv[1]);
  return 0;
}
