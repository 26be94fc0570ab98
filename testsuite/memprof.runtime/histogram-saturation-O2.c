/* Saturating slot counters, asm counter blocks (histogram-saturation.h).  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include "histogram-saturation.h"

/* { dg-final { memprof-record fn=make_block<main histogram_slots==2 histogram.0==4294967295 histogram.1==4294967295 total_access_count==8589934590 } } */
