/* -O3: the pass runs after the vectorizer, so the loop stays vectorized
   and each 16-byte vector load and store counts once.  */
/* { dg-do run } */
/* { dg-options "-O3 -fopt-info-vec -fplugin-arg-memprof-stats" } */

#include <stdlib.h>

#define N 1024
#define NOINLINE __attribute__ ((noinline, noclone))

NOINLINE void *
alloc_in (void)
{
  void *p = aligned_alloc (64, N * sizeof (int));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

NOINLINE void *
alloc_out (void)
{
  void *p = aligned_alloc (64, N * sizeof (int));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

NOINLINE void
scale (int *restrict out, const int *restrict in)
{
  for (int i = 0; i < N; i++)
    out[i] = in[i] * 3;
}

int
main (void)
{
  int *in = alloc_in (), *out = alloc_out ();
  __builtin_memset (in, 1, N * sizeof (int));	/* in: 64 */
  scale (out, in);				/* in: 256, out: 256 */
  int bad = out[5] != 3 * 0x01010101;		/* out: 1 */
  free (in);
  free (out);
  return bad;
}

/* { dg-final { scan-compiler-output "vector-O3.c:30:\[0-9\]+: optimized: loop vectorized using 16 byte vectors" } } */
/* { dg-final { scan-compiler-output "memprof: scale: 2 instrumented, 0 skipped" } } */
/* { dg-final { memprof-record fn=alloc_in<main total_access_count==320 } } */
/* { dg-final { memprof-record fn=alloc_out<main total_access_count==257 } } */
