/* The newer version of stale-v1.c: three lines added here move every
   line below (make_cold's cold site still matches: lines are matched
   relative to their function's start),
   hot_round renamed hot_step, and a line added in make_name above its
   allocation (the profile's site there no longer matches).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cold_blocks[64];

static void __attribute__ ((noinline))
make_cold (void)
{
  for (int i = 0; i < 64; i++)
    cold_blocks[i] = calloc (1, 4096); /* cold site */
}

static unsigned long __attribute__ ((noinline))
hot_step (int r)
{
  unsigned long *v = malloc (64 * sizeof *v); /* hot site */
  for (int i = 0; i < 64; i++)
    v[i] = i + r;
  unsigned long s = 0;
  for (int k = 0; k < 200; k++)
    for (int i = 0; i < 64; i++)
      s += v[i] * k;
  free (v);
  return s;
}

static char * __attribute__ ((noinline))
make_name (int i)
{
  int size = i < 100 ? 16 : 32;
  char *name = malloc (size); /* name site */
  snprintf (name, size, "n%d", i);
  return name;
}

int
main (void)
{
  make_cold ();
  unsigned long sum = 0;
  for (int r = 0; r < 3000; r++)
    sum += hot_step (r);
  char *name = make_name (7);
  printf ("sum %lu %s\n", sum, name);
  free (name);
  for (int i = 0; i < 64; i++)
    free (cold_blocks[i]);
  return 0;
}
