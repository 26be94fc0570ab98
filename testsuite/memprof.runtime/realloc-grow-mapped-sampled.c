/* realloc-grow-mapped.c in the sampling mode, the blocks ours: round 0's
   are each site's first (weight 1), round 1's larger than the interval
   (16 MiB), so profiled with weight 1 too, not sampled.  Each stays
   ours and grows without a copy; the records are the exact mode's.  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=16777216:sample_seed=3:verbosity=1" } */

#include "realloc-grow-mapped.c"

/* { dg-output "memprof: sampled 0 allocations so far" } */
/* { dg-output ".*grew 4 blocks without copying \\(\[0-4\] in place\\)" } */
/* { dg-final { memprof-record fn=make<main alloc_count==2 total_size==134217728 total_access_count==2097152 min_access_count==1048576 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=grow<grown<main alloc_count==2 total_size==268435456 total_access_count==4194304 min_access_count==2097152 max_access_count==2097152 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=grow_more<grown<main alloc_count==2 total_size==536870912 total_access_count==4194308 min_access_count==2097154 max_access_count==2097154 min_percent_utilized==50 max_percent_utilized==50 } } */
