/* Trees the plugin keeps across functions must be GC roots (callback mode, -O0): collect
   garbage at every opportunity (ggc-min-expand=0, ggc-min-heapsize=0)
   while instrumenting many functions, in every mode.  */
/* { dg-do link } */
/* { dg-options "-O0 -fplugin-arg-memprof-callbacks --param ggc-min-expand=0 --param ggc-min-heapsize=0 -fplugin-arg-memprof-stats" } */

#include "gc-roots.h"

/* { dg-final { scan-compiler-output "memprof: f39: 4 instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: f0: 1 instrumented, 0 skipped \[^\n\]*, 1 builtins" } } */
