/* One allocation site (alloc's malloc), two contexts: hot's block, the
   site's first, kept and written 400,000 times; then churn's 30,000
   blocks of 32 bytes, each read once and freed.  Sampled at 1 MiB, the
   first block is profiled with weight 1 and churn's 960,000 bytes are
   sampled about six times in ten runs: the rest of the site is churn's
   or nobody's, never hot's.  */

#include <stdlib.h>

static volatile long sink;

__attribute__ ((noinline)) void *
alloc (size_t n)
{
  return malloc (n);
}

__attribute__ ((noinline)) long *
hot (void)
{
  return alloc (64);
}

__attribute__ ((noinline)) void
churn (void)
{
  for (int i = 0; i < 30000; i++)
    {
      void *p = alloc (32);
      sink = sink + *(volatile char *) p;
      free (p);
    }
}

int
main (void)
{
  long *h = hot ();
  for (int i = 0; i < 400000; i++)
    h[i & 7] = i;
  churn ();
  sink = h[3];
  free (h);
  return 0;
}
