/* A function with ten pointer accesses loads the shadow base once, at
   entry; the other function touches only locals and named globals and
   has no instrumentation at all (-O2).  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include "once-per-function.h"

/* { dg-final { scan-assembler-times "mov\\S*\\t__memprof_shadow_memory_dynamic_address" 1 } } */
/* { dg-final { scan-compiler-output "memprof: locals_and_globals: 0 instrumented, \[1-9\]\[0-9\]* skipped" } } */
/* ten_accesses: every access instrumented: 8 after -O2's transformations,
   12 from GCC 12 on, whose -O2 vectorizes the loop (with
   -fno-tree-vectorize GCC 12 has 8 too).  */
/* { dg-final { set ten_accesses [expr { [memprof_gcc_major] >= 12 ? 12 : 8 }] } } */
/* { dg-final { scan-compiler-output "memprof: ten_accesses: $ten_accesses instrumented, 0 skipped " } } */
