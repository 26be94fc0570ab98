/* malloc-usable-bytes.c in the sampling mode, at an interval that mixes
   the kinds (sampling_heap.h): most small blocks are glibc's, most
   blocks past a few KiB sampled and the runtime's, and realloc moves
   blocks between the two.  The same contract holds for both.  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=4096:sample_seed=5" } */

#include "malloc-usable-bytes.c"

/* { dg-output "usable-bytes checks: 3467\n" } */
