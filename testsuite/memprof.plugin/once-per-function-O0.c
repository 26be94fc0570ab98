/* A function with ten pointer accesses loads the shadow base once, at
   entry; the other function touches only locals and named globals and
   has no instrumentation at all (-O0).  */
/* { dg-do compile } */
/* { dg-options "-O0 -fplugin-arg-memprof-stats" } */

#include "once-per-function.h"

/* { dg-final { scan-assembler-times "mov\\S*\\t__memprof_shadow_memory_dynamic_address" 1 } } */
/* { dg-final { scan-compiler-output "memprof: locals_and_globals: 0 instrumented, \[1-9\]\[0-9\]* skipped" } } */
/* ten_accesses: every access instrumented, the source's 11 accesses.  */
/* { dg-final { scan-compiler-output "memprof: ten_accesses: 11 instrumented, 0 skipped " } } */
