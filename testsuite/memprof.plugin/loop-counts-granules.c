/* A loop's run across exactly two granules is counted at its exit with
   no call: N1 = ((FIRST | 63) - FIRST) / STRIDE + 1 of its accesses in
   the first granule, the rest in the second.  Each block is 128 bytes,
   64-byte aligned and read only by the loop, so which of its two
   granules were touched (the utilisation) shows where the counts went:
   one access wrongly moved to the other granule leaves ONE_EACH at 50%.
   WITHIN's run is in its second granule alone; MANY's crosses both and
   is longer than a granule holds at its stride.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-tree-vectorize -fplugin-arg-memprof-stats" } */

#include "loop-counts-granules.h"

/* { dg-final { scan-compiler-output "memprof: sum_ints: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { memprof-record fn=alloc_one_each<main alloc_count==1 total_access_count==2 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_three_one<main alloc_count==1 total_access_count==4 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_within<main alloc_count==1 total_access_count==16 max_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=alloc_many<main alloc_count==1 total_access_count==30 max_percent_utilized==100 } } */
