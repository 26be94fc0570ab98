/* paired-counts-O2.c's stores counted access by access
   (counters=gimple, which pairs nothing): the same counts.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-memprof-counters=gimple" } */

#include "paired-counts.h"

/* { dg-final { memprof-record fn=alloc_inside<main alloc_count==1 total_access_count==3 max_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=alloc_across<main alloc_count==1 total_access_count==3 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_run<main alloc_count==1 total_access_count==301 max_percent_utilized==100 } } */
