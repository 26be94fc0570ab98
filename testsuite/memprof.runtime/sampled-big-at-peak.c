/* A buffer grown by doubling to 32 MiB and kept to the end, at one
   allocation site with 400,000 small blocks of another context (both
   through site ()): sampled at 1 MiB, the buffer's last blocks are
   weight-1 blocks, recorded apart from the context's two or three
   sampled ones, and the context's live heap, held by the sampled record,
   was scaled and capped with that record's totals: "live: 587,774 bytes
   in 1 block at the peak" for a 128 MiB buffer live from start to end
   (jsoncpp's stringstream buffer).  The weight-1 blocks are no sample:
   the process's peak is the last growth step's two buffers (16 MiB and
   32 MiB: the small blocks come to some 9 MB), and they are the
   context's there, whole.  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1048576:sample_seed=2" } */

#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) void *
site (size_t n)
{
  char *p = malloc (n);
  memset (p, 1, n < 64 ? n : 64);
  return p;
}

__attribute__ ((noinline)) void *
grow (void *old, size_t n)
{
  void *p = site (n);
  free (old);
  return p;
}

__attribute__ ((noinline)) void *
small (size_t n)
{
  return site (n);
}

enum { N = 400000 };
void *v[N];

int
main (void)
{
  void *b = 0;
  /* 513, 1025, ..., 33,554,433 bytes: 17 blocks.  */
  for (size_t n = 513; n <= (32u << 20) + 1; n = (n - 1) * 2 + 1)
    b = grow (b, n);
  for (int i = 0; i < N; i++)
    v[i] = small (16 + (i & 15));
  for (int i = 0; i < N; i++)
    free (v[i]);
  free (b);
  return 0;
}

/* { dg-final { memprof-dump-scan {^Peak \(estimated\): 50,331,650 bytes live in 2 blocks,} } } */
/* { dg-final { memprof-dump-scan {^live: +50,331,650 bytes in 2 blocks at the peak; max 50,331,650 bytes, [0-9,]+ blocks?; 0 bytes in 0 blocks at exit$} } } */
