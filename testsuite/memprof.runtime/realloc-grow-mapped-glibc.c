/* realloc-grow-mapped.c uninstrumented, against glibc's malloc, which
   grows its mapped chunks with mremap: the reference for the page
   faults and the bytes kept.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#include "realloc-grow-mapped.c"

/* { dg-output "grew 4 blocks without copying \\(\[0-4\] in place\\)" } */
