/* fields-array.c at -O2: counts depend on the optimizer (vectorized or
   unrolled loops), the fold and the cold field do not.  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include "fields-array.c"

/* { dg-final { memprof-record fn=make_items<main total_size==3200 type.size==32 fields(key).accesses>=100 fields(count).accesses>=100 fields(note).accesses==0 fields(note).cold==1 } } */
/* { dg-final { memprof-fields-scan {^objects: +100 in 1 block \(arrays: slots folded per object\)$} } } */
