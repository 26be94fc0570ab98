/* loop-counts-O2.c with the counts' asm (the loop exits' asm goto
   included, counter_asm.cc) in GCC's Intel assembler dialect: the same
   exact access counts.  */
/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-O2 -fno-tree-vectorize -masm=intel -fplugin-arg-memprof-stats" } */

#include "loop-counts.h"

/* { dg-final { scan-compiler-output "memprof: sum_bytes: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_until: 2 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_ints: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_odd: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_zigzag: 3 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_calling: 1 instrumented, 0 skipped \[^\n\]*, 0 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_until_value: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_pair_until: 2 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_bounded: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: add_arrays: 3 instrumented, 0 skipped \[^\n\]*, 3 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: spread: 2 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_middles: 2 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_down: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_bytes_down: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: scale_digits: 2 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: append_letters: 5 instrumented, 0 skipped \[^\n\]*, 4 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: copy_until: 7 instrumented, 0 skipped \[^\n\]*, 4 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_guarded: 2 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_guarded_upto: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_noting: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: copy_noting: 2 instrumented, 0 skipped \[^\n\]*, 2 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: sum_noting_down: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { memprof-record fn=alloc_bytes<main alloc_count==1 total_access_count==1000 } } */
/* { dg-final { memprof-record fn=alloc_string<main total_access_count==601 } } */
/* { dg-final { memprof-record fn=alloc_ints<main total_access_count==500 } } */
/* { dg-final { memprof-record fn=alloc_pairs<main total_access_count==150 } } */
/* { dg-final { memprof-record fn=alloc_zigzag<main total_access_count==401 } } */
/* { dg-final { memprof-record fn=alloc_called<main total_access_count==200 } } */
/* { dg-final { memprof-record fn=alloc_early<main total_access_count==122 } } */
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
/* { dg-final { memprof-record fn=alloc_copy_in<main total_access_count==161 } } */
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
