/* large-blocks-kept-limit.c uninstrumented, against glibc's malloc.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#include "large-blocks-kept-limit.c"

/* { dg-output "large-blocks-kept-limit: ok\n" } */
