/* Saturating slot counters, GIMPLE counters (histogram-saturation.h).  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram -fplugin-arg-memprof-counters=gimple" } */

#include "histogram-saturation.h"

/* { dg-final { memprof-record fn=make_block<main histogram_slots==2 histogram.0==4294967295 histogram.1==4294967295 total_access_count==8589934590 } } */
