/* realloc-grow-mapped.c in histogram mode: a memset adds one to every
   8-byte slot it writes, and each life's histogram holds its own
   accesses alone (slot 2 of the 256 MiB blocks is untouched: the old
   life's count there is not carried over, in place or moved).  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include "realloc-grow-mapped.c"

/* { dg-output "grew 4 blocks without copying \\(\[0-4\] in place\\)" } */
/* { dg-final { memprof-record fn=make<main alloc_count==2 total_access_count==16777216 histogram.0==2 histogram.511==2 } } */
/* { dg-final { memprof-record fn=grow<grown<main alloc_count==2 total_access_count==33554432 min_access_count==16777216 histogram.0==2 histogram.511==2 } } */
/* { dg-final { memprof-record fn=grow_more<grown<main alloc_count==2 total_access_count==33554436 min_access_count==16777218 histogram.0==2 histogram.1==2 histogram.2==0 histogram.511==0 min_percent_utilized==50 } } */
