/* A function with ten pointer accesses loads the shadow base once, at
   entry; the other function touches only locals and named globals and
   has no instrumentation at all (-O2).  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include "once-per-function.h"

/* { dg-final { scan-assembler-times "__memprof_shadow_memory_dynamic_address" 1 } } */
/* { dg-final { scan-compiler-output "memprof: locals_and_globals: 0 instrumented, \[1-9\]\[0-9\]* skipped" } } */
/* ten_accesses: every access instrumented, 12 after -O2's transformations.  */
/* { dg-final { scan-compiler-output "memprof: ten_accesses: 12 instrumented, 0 skipped " } } */
