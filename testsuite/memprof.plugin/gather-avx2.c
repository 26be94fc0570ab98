/* An AVX2 gather (the x86 target builtin the vectorizer emits) counts
   once, at lane 0's address, like the single instruction it becomes.  */
/* { dg-do compile } */
/* { dg-options "-O3 -march=haswell -fopt-info-vec -fplugin-arg-memprof-stats" } */

#define N 1024

void
gather (int *restrict out, const int *restrict in, const int *restrict idx)
{
  for (int i = 0; i < N; i++)
    out[i] = in[idx[i]];
}

/* { dg-final { scan-compiler-output "gather-avx2.c:11:\[0-9\]+: optimized: loop vectorized using 32 byte vectors" } } */
/* { dg-final { scan-compiler-output "memprof: gather: 3 instrumented, 0 skipped" } } */
/* { dg-final { scan-assembler "vpgatherdd" } } */
