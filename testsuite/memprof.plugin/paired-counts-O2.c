/* A pair of stores through a reloaded pointer, counted after a test of
   whether they share a granule: the same counts as access by access
   (paired-counts-gimple-O2.c), in the same granules (the percentages:
   a pair counted in its first granule only would leave ACROSS's second
   one untouched).  */
/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include "paired-counts.h"

/* { dg-final { scan-compiler-output "memprof: append_char: \[0-9\]+ instrumented, 0 skipped \[^\n\]*, 0 at loop exits, 1 paired" } } */
/* { dg-final { scan-compiler-output "memprof: main: \[^\n\]*, 0 paired" } } */
/* { dg-final { memprof-record fn=alloc_inside<main alloc_count==1 total_access_count==3 max_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=alloc_across<main alloc_count==1 total_access_count==3 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_run<main alloc_count==1 total_access_count==301 max_percent_utilized==100 } } */
