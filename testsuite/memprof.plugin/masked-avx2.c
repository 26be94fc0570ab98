/* With AVX2 the vectorizer turns the conditional store into .MASK_STORE
   (vpmaskmovd), which the pass counts like any vector store: the loop
   has one instrumented load and one instrumented masked store.  */
/* { dg-do compile } */
/* { dg-options "-O3 -mavx2 -fopt-info-vec -fplugin-arg-memprof-stats" } */

#define N 1024

void
conditional_copy (int *restrict out, const int *restrict in)
{
  for (int i = 0; i < N; i++)
    if (in[i] > 0)
      out[i] = in[i];
}

/* { dg-final { scan-compiler-output "masked-avx2.c:12:\[0-9\]+: optimized: loop vectorized using 32 byte vectors" } } */
/* { dg-final { scan-compiler-output "memprof: conditional_copy: 2 instrumented, 0 skipped" } } */
/* { dg-final { scan-assembler "vpmaskmovd" } } */
