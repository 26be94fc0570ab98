/* fields-struct.c at -O2: the counts depend on the optimizer, the field
   ranking does not.  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include "fields-struct.c"

/* { dg-final { memprof-record fn=make_rec<main alloc_count==1 type.size==80 fields(hot).accesses>=2 fields(never).accesses==0 fields(never).cold==1 } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(never: 64 bytes\)} } } */
