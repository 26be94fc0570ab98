/* fields-copy.c at -O2: the copy stays one aggregate assignment (in a
   function of its own, from memory to memory), so the counts are the
   same.  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include "fields-copy.c"

/* { dg-final { memprof-record fn=main type.size==72 fields(hits).accesses==150 fields(spare).accesses==350 fields(last).accesses==51 } } */
