/* OpenMP outlined bodies (main._omp_fn.N) are instrumented like any
   function; each thread writes whole granules, so the count is exact.  */
/* { dg-do run } */
/* { dg-options "-O0 -fopenmp -fplugin-arg-memprof-stats" } */
/* { dg-set-target-env-var OMP_NUM_THREADS 2 } */

#include <stdlib.h>

#define N 4096

__attribute__ ((noinline)) void *
alloc_shared (void)
{
  void *p = aligned_alloc (64, N * sizeof (int));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

int
main (void)
{
  int *a = alloc_shared ();
#pragma omp parallel for schedule(static, 16)
  for (int i = 0; i < N; i++)
    a[i] = i;
  long sum = 0;
#pragma omp parallel for schedule(static, 16) reduction(+ : sum)
  for (int i = 0; i < N; i++)
    sum += a[i];
  free (a);
  return sum != (long) N * (N - 1) / 2;
}

/* { dg-final { scan-compiler-output "memprof: main._omp_fn.0: \[1-9\]\[0-9\]* instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: main._omp_fn.1: \[1-9\]\[0-9\]* instrumented" } } */
/* { dg-final { memprof-record fn=alloc_shared<main total_access_count==8192 } } */
