/* large-blocks-kept-rss.c uninstrumented, against glibc's malloc.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#include "large-blocks-kept-rss.c"

/* { dg-output "large-blocks-kept-rss: ok\n" } */
