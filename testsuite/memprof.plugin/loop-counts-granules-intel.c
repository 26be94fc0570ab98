/* loop-counts-granules.c in GCC's Intel assembler dialect: the loop
   exits' asm goto splits a run across two granules the same way.  */
/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-O2 -fno-tree-vectorize -masm=intel -fplugin-arg-memprof-stats" } */

#include "loop-counts-granules.h"

/* { dg-final { scan-compiler-output "memprof: sum_ints: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { memprof-record fn=alloc_one_each<main alloc_count==1 total_access_count==2 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_three_one<main alloc_count==1 total_access_count==4 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_within<main alloc_count==1 total_access_count==16 max_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=alloc_many<main alloc_count==1 total_access_count==30 max_percent_utilized==100 } } */
