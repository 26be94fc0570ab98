/* Loops through pointer induction variables at -O0: the exact access
   count of each block.  Unoptimized code reads *P twice per iteration in
   sum_until (s += *p++ after while (*p)) and A[I] twice in
   sum_until_value, and S[I] twice in copy_until: 300, 120 and 60 more
   than at -O2.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include "loop-counts.h"

/* { dg-final { memprof-record fn=alloc_bytes<main alloc_count==1 total_access_count==1000 } } */
/* { dg-final { memprof-record fn=alloc_string<main total_access_count==901 } } */
/* { dg-final { memprof-record fn=alloc_ints<main total_access_count==500 } } */
/* { dg-final { memprof-record fn=alloc_pairs<main total_access_count==150 } } */
/* { dg-final { memprof-record fn=alloc_zigzag<main total_access_count==401 } } */
/* { dg-final { memprof-record fn=alloc_called<main total_access_count==200 } } */
/* { dg-final { memprof-record fn=alloc_early<main total_access_count==242 } } */
/* { dg-final { memprof-record fn=alloc_bounded_n<main total_access_count==60 } } */
/* { dg-final { memprof-record fn=alloc_bounded_len<main total_access_count==30 } } */
/* { dg-final { memprof-record fn=alloc_stop_a<main total_access_count==42 } } */
/* { dg-final { memprof-record fn=alloc_stop_b<main total_access_count==40 } } */
/* { dg-final { memprof-record fn=alloc_run_a<main total_access_count==70 } } */
/* { dg-final { memprof-record fn=alloc_run_b<main total_access_count==70 } } */
/* { dg-final { memprof-record fn=alloc_sums<main total_access_count==251 } } */
/* { dg-final { memprof-record fn=alloc_left<main total_access_count==250 } } */
/* { dg-final { memprof-record fn=alloc_right<main total_access_count==250 } } */
/* { dg-final { memprof-record fn=alloc_quads<main total_access_count==101 } } */
/* { dg-final { memprof-record fn=alloc_source<main total_access_count==100 } } */
/* { dg-final { memprof-record fn=alloc_short<main total_access_count==25 } } */
/* { dg-final { memprof-record fn=alloc_triples<main total_access_count==100 } } */
/* { dg-final { memprof-record fn=alloc_quartets<main total_access_count==100 } } */
/* { dg-final { memprof-record fn=alloc_down<main total_access_count==300 } } */
/* { dg-final { memprof-record fn=alloc_digits_a<main total_access_count==200 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_digits_r<main total_access_count==200 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_back_a<main total_access_count==8 max_percent_utilized==25 } } */
/* { dg-final { memprof-record fn=alloc_back_b<main total_access_count==30 max_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=alloc_builder<main total_access_count==902 } } */
/* { dg-final { memprof-record fn=alloc_builder_data<main total_access_count==300 } } */
/* { dg-final { memprof-record fn=alloc_tally<main total_access_count==122 } } */
/* { dg-final { memprof-record fn=alloc_copy_out<main total_access_count==60 } } */
/* { dg-final { memprof-record fn=alloc_copy_in<main total_access_count==221 } } */
/* { dg-final { memprof-record fn=alloc_builder_src<main total_access_count==600 } } */
/* { dg-final { memprof-record fn=alloc_guard_a<main total_access_count==30 } } */
/* { dg-final { memprof-record fn=alloc_guard_b<main total_access_count==80 } } */
/* { dg-final { memprof-record fn=alloc_guard_c<main total_access_count==40 } } */
/* { dg-final { memprof-record fn=alloc_guard_d<main total_access_count==40 } } */
/* { dg-final { memprof-record fn=alloc_guard_e<main total_access_count==0 } } */
/* { dg-final { memprof-record fn=alloc_guard_f<main total_access_count==20 } } */
/* { dg-final { memprof-record fn=alloc_guard_g<main total_access_count==60 } } */
/* { dg-final { memprof-record fn=alloc_noted<main total_access_count==203 } } */
/* { dg-final { memprof-record fn=alloc_grown_in<main total_access_count==100 } } */
/* { dg-final { memprof-record fn=alloc_grown_out<main total_access_count==100 } } */
/* { dg-final { memprof-record fn=alloc_noted_down<main total_access_count==122 } } */
