/* An instrumented library: one allocation site, touched a known number
   of times.  Built with -fheapprof at -O0 and opened with dlopen by
   plugin-main.c, or linked into it.  SITE names the allocating function
   and BLOCK the block size, so two builds of this file make two
   libraries with the same code layout and different names.  */
#include <stdlib.h>

#ifndef SITE
#define SITE plugin_alloc
#endif
#ifndef BLOCK
#define BLOCK 128
#endif

__attribute__ ((noinline)) static char *
SITE (void)
{
  return malloc (BLOCK);
}

/* Each round: one block, four accesses in two granules.  */
int
plugin_work (int rounds)
{
  int sum = 0;
  for (int r = 0; r < rounds; r++)
    {
      char *p = SITE ();
      p[0] = (char) r;
      p[64] = 1;
      sum += p[0] + p[64];
      free (p);
    }
  return sum;
}
