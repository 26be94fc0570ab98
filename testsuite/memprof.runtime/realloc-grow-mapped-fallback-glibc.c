/* realloc-grow-mapped-fallback.c uninstrumented, against glibc's
   malloc: the behaviour the runtime follows.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#include "realloc-grow-mapped-fallback.c"

/* { dg-output "fallbacks done\n" } */
