/* -fheapprof-use: a cold site (blocks live the whole run, never read
   after one store each) and a hot one (short-lived, read hundreds of
   times per byte).  Trained, merged and rebuilt by use.exp.  */
#include <stdio.h>
#include <stdlib.h>

#define NCOLD 64
#define ROUNDS 3000

static char *cold_blocks[NCOLD];

static void __attribute__ ((noinline))
make_cold (void)
{
  for (int i = 0; i < NCOLD; i++)
    {
      cold_blocks[i] = malloc (4096); /* cold site */
      cold_blocks[i][0] = (char) i;
    }
}

static unsigned long __attribute__ ((noinline))
hot_round (int r)
{
  unsigned long *v = malloc (64 * sizeof *v); /* hot site */
  for (int i = 0; i < 64; i++)
    v[i] = i + r;
  unsigned long s = 0;
  for (int k = 0; k < 2000; k++)
    for (int i = 0; i < 64; i++)
      s += v[i] * k;
  free (v);
  return s;
}

int
main (void)
{
  make_cold ();
  unsigned long sum = 0;
  for (int r = 0; r < ROUNDS; r++)
    sum += hot_round (r);
  printf ("sum %lu\n", sum);
  for (int i = 0; i < NCOLD; i++)
    free (cold_blocks[i]);
  return 0;
}
