/* sampled-peak-cap.c's program under sample_seed=4, where the sampler's
   weights alone made the peak 4,194,496 bytes in 65,541 blocks, below
   what the context's own calibrated share says was live: the peak is
   no less than the contexts' shares of it.  */
/* { dg-do run } */
/* { dg-options "-O1" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1048576:sample_seed=4" } */

#include "sampled-peak-cap.c"

/* { dg-final { memprof-dump-scan {^Total: 6,400,000 bytes in 100,000 blocks from 1 allocation context,} } } */
/* { dg-final { memprof-dump-scan {^Peak \(estimated\): 6,399,936 bytes live in 99,999 blocks,} } } */
