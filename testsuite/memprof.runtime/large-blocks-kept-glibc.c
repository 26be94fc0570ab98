/* large-blocks-kept.c uninstrumented, against glibc's malloc, which
   meets the same bounds.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#define GLIBC_REFERENCE 1
#include "large-blocks-kept.c"

/* { dg-output "large-blocks-kept: 200 rounds\n" } */
