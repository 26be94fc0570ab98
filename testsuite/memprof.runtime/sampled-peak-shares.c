/* sampled-peak-cap.c's program under sample_seed=4, where the sampler's
   weights alone made the peak 4,194,496 bytes in 65,541 blocks, below
   what the context's own calibrated share says was live: the peak is
   no less than the contexts' shares of it.  The share counts the
   site's first block (weight 1, a record apart) as it is and scales
   the rest: all 100,000 blocks (capped at the sampled record's own
   totals, it read 6,399,936 bytes in 99,999).  */
/* { dg-do run } */
/* { dg-options "-O1" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1048576:sample_seed=4" } */

#include "sampled-peak-cap.c"

/* { dg-final { memprof-dump-scan {^Total: 6,400,000 bytes in 100,000 blocks from 1 allocation context,} } } */
/* { dg-final { memprof-dump-scan {^Peak \(estimated\): 6,400,000 bytes live in 100,000 blocks,} } } */
