/* Histogram mode at -O2 through the callbacks (__memprof_hist_load/store): the same exact counts per 8-byte slot (histogram-slots.h).  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram -fplugin-arg-memprof-callbacks" } */

#include "histogram-slots.h"

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=make_rec<main alloc_count==3 total_size==240 histogram_slots==10 } } */
/* { dg-final { memprof-record fn=make_rec<main histogram.0==1800 histogram.1==6 histogram.2==140000 histogram.9==3 } } */
/* { dg-final { memprof-record fn=make_rec<main histogram.3==0 histogram.4==0 histogram.5==0 histogram.6==0 histogram.7==0 histogram.8==0 } } */
/* Every other metric, from the slots: 141809 accesses; the first block
   has 140603, the others 603; each block touches both of its 64-byte
   granules (bytes 0-63 and 64-79): utilisation 100%.  */
/* { dg-final { memprof-record fn=make_rec<main total_access_count==141809 min_access_count==603 max_access_count==140603 min_percent_utilized==100 } } */
