/* The default counter updates on x86-64: one asm block per run of
   accesses between calls of a basic block, with per granule site
   "leaq OFFSET(VAR[,INDEX,SCALE]), T" (or "movq VAR, T"), "shrq $6, T",
   "addq $STEP, (BASE,T,8)".  A load and a store of one address share one
   "addq $2"; a call between them gives two blocks; the fields of one
   structure share their pointer operand.  */
/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include "counter-sequence.h"

/* { dg-final { scan-compiler-output "memprof: load_two: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: bump: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: bump_across_call: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: fields: 3 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: indexed: 1 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: sum_array: 1 instrumented, 0 skipped" } } */
/* Blocks: load_two 1, bump 1, bump_across_call 2, fields 1, indexed 1,
   sum_array 1, neighbours 1.  */
/* { dg-final { scan-assembler-times "#APP" 8 } } */
/* { dg-final { scan-assembler-times "shrq\t\\\$6, %r\[a-z0-9\]+" 12 } } */
/* { dg-final { scan-assembler-times "addq\t\\\$1, \\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)" 11 } } */
/* { dg-final { scan-assembler-times "addq\t\\\$2, \\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)" 1 } } */
/* { dg-final { scan-assembler-times "leaq\t8\\(%r\[a-z0-9\]+\\), %r" 1 } } */
/* { dg-final { scan-assembler-times "leaq\t16\\(%r\[a-z0-9\]+\\), %r" 1 } } */
/* { dg-final { scan-assembler-times "leaq\t\\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,4\\), %r\[a-z0-9\]+\n\tshrq" 1 } } */
/* { dg-final { scan-assembler-not "andq\t\\\$-64" } } */
/* { dg-final { scan-compiler-output "memprof: neighbours: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-assembler-times "leaq\t-8\\(%rdi\\), %r\[a-z0-9\]+\n\tshrq" 1 } } */
/* { dg-final { scan-assembler-times "leaq\t-24\\(%rdi\\), %r\[a-z0-9\]+\n\tshrq" 1 } } */
