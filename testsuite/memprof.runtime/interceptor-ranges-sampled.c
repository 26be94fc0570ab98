/* The interceptors' counts in the sampling mode, where most blocks are
   the C library's: a block of 1 MiB or more is always sampled at this
   interval (p = 1 - e^-16) and the small one is its site's first
   (profiled with weight 1), so all of them are the runtime's and their
   counts exact (programs/interceptor-ranges.h).  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=65536:sample_seed=11" } */

#include "programs/interceptor-ranges.h"

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=site_big<main alloc_count==12 total_access_count==198144 min_access_count==16512 max_access_count==16512 } } */
/* { dg-final { memprof-record fn=site_small<main alloc_count==1 total_access_count==126 } } */
