/* The sampling mode's peak is an estimate, but within what the profile
   knows: 100,000 blocks of 64 bytes, all live at the exit, under
   sample_interval=1048576 and sample_seed=5: the sampler's weights
   alone made the peak 10,486,144 bytes in 163,851 blocks, above the
   6,400,000 allocated in all: no more than all the program allocated.
   (sampled-peak-shares.c runs this program under another seed.)  */
/* { dg-do run } */
/* { dg-options "-O1" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1048576:sample_seed=5" } */

#include <stdlib.h>

char *kept[100000];

__attribute__ ((noinline)) void
keep_small (void)
{
  for (int i = 0; i < 100000; i++)
    {
      kept[i] = malloc (64);
      kept[i][0] = 1;
    }
}

int
main (void)
{
  keep_small ();
  return 0;
}

/* { dg-final { memprof-dump-scan {^Total: 6,400,000 bytes in 100,000 blocks from 1 allocation context,} } } */
/* { dg-final { memprof-dump-scan {^Peak \(estimated\): 6,400,000 bytes live in 100,000 blocks,} } } */
