/* The GIMPLE counter update (counters=gimple) at -O2 on x86-64: the
   granule index is the address shifted right by 6, and the counter is updated by one read-modify-write
   with a scaled index, "shrq $6, %i; addq $1, (%base,%i,8)", with no
   masking of the address ("andq $-64") and no "shrq $3".  A load and a
   store of the same address in one block with no call between them
   share the shift and one "addq $2"; with a call between them they
   share the shift only.  */
/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats -fplugin-arg-memprof-counters=gimple" } */

#include "counter-sequence.h"

/* A redirected mempcpy leaves an addition in its place, but its call to
   __memprof_memcpy still keeps the two updates apart.  */
char *
bump_across_mempcpy (long *r, char *d, const char *s, unsigned long n)
{
  long value = *r;
  char *e = __builtin_mempcpy (d, s, n);
  *r = value + 1;
  return e;
}

/* { dg-final { scan-compiler-output "memprof: load_two: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: bump_across_mempcpy: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: bump: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: bump_across_call: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-compiler-output "memprof: fields: 3 instrumented, 0 skipped" } } */
/* Shifts: load_two 2, bump 1, bump_across_call 1 (shared), fields 3,
   indexed 1, sum_array 1, neighbours 2, bump_across_mempcpy 1 (shared);
   updates by 1:
   all but bump's, which adds 2.  */
/* { dg-final { scan-assembler-times "shrq\t\\\$6, %r\[a-z0-9\]+" 12 } } */
/* { dg-final { scan-assembler-times "addq\t\\\$1, 0?\\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)" 13 } } */
/* { dg-final { scan-assembler-times "addq\t\\\$2, 0?\\(%r\[a-z0-9\]+,%r\[a-z0-9\]+,8\\)" 1 } } */
/* { dg-final { scan-assembler-not "andq\t\\\$-64" } } */
/* { dg-final { scan-assembler-not "shrq\t\\\$3," } } */
