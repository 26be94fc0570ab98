/* Histogram mode: a call-free loop's accesses counted at its exit
   (__memprof_hist_count_strided) land in the slots they would have
   counted one by one.  The loops of loop-counts.h, vectorization off.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-tree-vectorize -fheapprof-histogram -fplugin-arg-memprof-stats" } */

#include "../memprof.plugin/loop-counts.h"

/* { dg-final { scan-compiler-output "memprof: sum_bytes: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_odd: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* 1000 reads, step 1: 8 per slot.  */
/* { dg-final { memprof-record fn=alloc_bytes<main total_access_count==1000 histogram_slots==125 histogram.0==8 histogram.61==8 histogram.124==8 } } */
/* 500 ints, step 4: 2 per slot.  */
/* { dg-final { memprof-record fn=alloc_ints<main total_access_count==500 histogram_slots==250 histogram.0==2 histogram.249==2 } } */
/* The odd elements of 300 longs: every other slot.  */
/* { dg-final { memprof-record fn=alloc_pairs<main total_access_count==150 histogram.0==0 histogram.1==1 histogram.298==0 histogram.299==1 } } */
/* 200 letters written one by one (the loop calls), then read two by two
   up to the zero at byte 200.  */
/* { dg-final { memprof-record fn=alloc_zigzag<main total_access_count==401 histogram_slots==51 histogram.0==16 histogram.24==16 histogram.25==1 histogram.26==0 } } */
/* Counted access by access (the loop calls): 2 per slot too.  */
/* { dg-final { memprof-record fn=alloc_called<main total_access_count==200 histogram.0==2 histogram.99==2 } } */
