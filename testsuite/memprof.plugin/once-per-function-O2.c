/* A function with ten pointer accesses loads the shadow base once, at
   entry; the other function touches only locals and named globals and
   has no instrumentation at all (-O2).  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include "once-per-function.h"

/* { dg-final { scan-assembler-times "__memprof_shadow_memory_dynamic_address" 1 } } */
/* { dg-final { scan-compiler-output "memprof: locals_and_globals: 0 instrumented, \[1-9\]\[0-9\]* skipped" } } */
/* { dg-final { scan-compiler-output-not "memprof: ten_accesses: 0 instrumented" } } */
