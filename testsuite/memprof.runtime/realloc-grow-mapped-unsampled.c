/* realloc-grow-mapped.c in the sampling mode at a 1 GiB interval:
   round 0's blocks are each site's first, ours with weight 1, and grow
   without a copy; round 1's are unsampled (seed 3), the C library's,
   which grows them with its own mremap.  Each site's record is its
   first block; round 1's blocks are unattributed.  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1073741824:sample_seed=3:verbosity=1" } */

#include "realloc-grow-mapped.c"

/* { dg-output "memprof: sampled 0 allocations so far" } */
/* { dg-output ".*grew 4 blocks without copying \\(\[0-4\] in place\\)" } */
/* { dg-final { memprof-record fn=make<main alloc_count==1 total_size==67108864 total_access_count==1048576 } } */
/* { dg-final { memprof-record fn=grow<grown<main alloc_count==1 total_size==134217728 total_access_count==2097152 } } */
/* { dg-final { memprof-record fn=grow_more<grown<main alloc_count==1 total_size==268435456 total_access_count==2097154 min_percent_utilized==50 max_percent_utilized==50 } } */
/* { dg-final { memprof-dump-scan {^Unattributed: 3 allocations; 469,762,048 bytes: at sites} } } */
