/* The pair's code in both assembler dialects (-masm=att here,
   paired-counts-intel.c): the two granule indexes compared, one add of
   2 when equal, else one add each.  That it counts exactly is
   paired-counts-O2.c's test.  */
/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-O2 -g0" } */

#include "paired-counts.h"

/* { dg-final { scan-assembler-times "cmpq\t%r\[a-z0-9\]+, %r\[a-z0-9\]+\n\tjne\t1f\n\taddq\t\\\$2, \\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)\n\tjmp\t2f\n1:\n\taddq\t\\\$1, \\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)\n\taddq\t\\\$1, \\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)\n\t2:" 1 } } */
