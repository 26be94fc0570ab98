/* The asm counter blocks in GCC's Intel assembler dialect (-masm=intel):
   they assemble, and every block of access-kinds-O2.c gets the same exact
   access count.  */
/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-O2 -masm=intel -fplugin-arg-memprof-stats" } */

#define VOLATILE volatile
#include "access-kinds.h"

/* { dg-final { scan-compiler-output "memprof: scalar_accesses: 3 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: field_accesses: 4 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: array_accesses: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: init_big: 4 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: copy_aggregate: 2 instrumented, 0 skipped" } } */
/* The parameter is a local copy: its reads are not heap.  */
/* { dg-final { scan-compiler-output "memprof: by_value: 0 instrumented, 2 skipped \\(2 local," } } */
/* { dg-final { scan-compiler-output "memprof: alloc_scalar: 0 instrumented, 0 skipped" } } */
/* { dg-final { memprof-record fn=alloc_scalar<main alloc_count==1 total_access_count==3 } } */
/* { dg-final { memprof-record fn=alloc_field<main total_access_count==4 } } */
/* { dg-final { memprof-record fn=alloc_array<main total_access_count==128 } } */
/* { dg-final { memprof-record fn=alloc_copy_src<main total_access_count==5 } } */
/* { dg-final { memprof-record fn=alloc_copy_dst<main total_access_count==1 } } */
/* { dg-final { memprof-record fn=alloc_byval<main total_access_count==5 } } */
/* { dg-final { memprof-record fn=alloc_untouched<main total_access_count==0 } } */
