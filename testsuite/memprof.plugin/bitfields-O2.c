/* Bit-field accesses at -O2.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#define VOLATILE volatile
#include "bitfields.h"

/* { dg-final { scan-compiler-output "memprof: use_flags: 5 instrumented, 0 skipped" } } */
/* { dg-final { memprof-record fn=alloc_flags<main alloc_count==1 total_access_count==5 } } */
