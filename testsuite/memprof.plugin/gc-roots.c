/* Trees the plugin keeps across functions must be GC roots: collect
   garbage at every opportunity (ggc-min-expand=0, ggc-min-heapsize=0)
   while instrumenting many functions, in every mode.  */
/* { dg-do run } */
/* { dg-options "-O1 --param ggc-min-expand=0 --param ggc-min-heapsize=0 -fplugin-arg-memprof-stats" } */

#include "gc-roots.h"

/* { dg-final { scan-compiler-output "memprof: f39: 4 instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: f0: 1 instrumented, 0 skipped \[^\n\]*, 1 builtins" } } */
