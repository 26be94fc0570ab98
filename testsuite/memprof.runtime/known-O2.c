/* Known programs give known profiles at -O2: counts, sizes, lifetimes
   and utilisation are exact; the number of accesses depends on how the
   loops were vectorised, but every granule is touched.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include "known-programs.h"

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=site_ints<main alloc_count==10 total_size==40000 min_size==4000 max_size==4000 } } */
/* { dg-final { memprof-record fn=site_ints<main min_access_count>=126 max_access_count<=2000 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=site_untouched<main alloc_count==1 total_size==524288 total_access_count==0 max_percent_utilized==0 } } */
/* { dg-final { memprof-record fn=site_sparse<main alloc_count==1 total_access_count>=1 max_percent_utilized<=1 } } */
/* { dg-final { memprof-record fn=site_held<main alloc_count==1 min_lifetime>=190 max_lifetime<=400 } } */
/* { dg-final { memprof-record fn=site_calloc<main alloc_count==1 total_access_count==0 max_percent_utilized==0 } } */
/* { dg-final { memprof-record fn=site_memset<main alloc_count==1 total_access_count==63 min_percent_utilized==100 } } */
