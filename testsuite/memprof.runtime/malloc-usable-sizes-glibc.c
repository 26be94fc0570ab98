/* malloc-usable-sizes.c uninstrumented, against glibc's malloc: the
   figures that test holds the runtime to are glibc's own.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#define GLIBC_REFERENCE 1
#include "malloc-usable-sizes.c"

/* { dg-output "usable-sizes checks: 5170\n" } */
