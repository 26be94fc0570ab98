/* malloc-usable-bytes.c uninstrumented, against glibc's malloc: the
   contract that test holds the runtime to is glibc's own.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#include "malloc-usable-bytes.c"

/* { dg-output "usable-bytes checks: 3467\n" } */
