/* Atomic accesses at -O2.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include "atomics.h"

/* { dg-final { scan-compiler-output "memprof: atomics: 8 instrumented" } } */
/* { dg-final { memprof-record fn=alloc_atomics<main total_access_count==8 } } */
