/* Known programs give known profiles at -O0: every access is counted
   exactly as the source says.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include "known-programs.h"

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=site_ints<main alloc_count==10 total_size==40000 min_size==4000 max_size==4000 } } */
/* { dg-final { memprof-record fn=site_ints<main total_access_count==20000 min_access_count==2000 max_access_count==2000 } } */
/* { dg-final { memprof-record fn=site_ints<main min_percent_utilized==100 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=site_untouched<main alloc_count==1 total_size==524288 total_access_count==0 max_percent_utilized==0 } } */
/* The 64 bytes used are one granule (or two) of 1025: under 1%.  */
/* { dg-final { memprof-record fn=site_sparse<main alloc_count==1 total_access_count>=1 total_access_count<=2 max_percent_utilized<=1 } } */
/* { dg-final { memprof-record fn=site_held<main alloc_count==1 min_lifetime>=190 max_lifetime<=400 } } */
/* { dg-final { memprof-record fn=site_calloc<main alloc_count==1 total_size==4000 total_access_count==0 max_percent_utilized==0 } } */
/* 4000 bytes at a 32-byte aligned address always span 63 granules.  */
/* { dg-final { memprof-record fn=site_memset<main alloc_count==1 total_access_count==63 min_percent_utilized==100 } } */
