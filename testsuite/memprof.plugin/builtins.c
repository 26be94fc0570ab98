/* memset, memcpy, memmove and mempcpy calls (and their __builtin_ forms)
   go to the runtime's __memprof_mem* functions, which count one access
   per 64-byte granule the range overlaps.  Small constant-size ones that
   GCC already turned into plain loads and stores count as those.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__ ((noinline, noclone))
#define ALLOCATOR(name, size)			\
  NOINLINE void *name (void)			\
  {						\
    void *p = aligned_alloc (64, size);			\
    __asm__ volatile ("" : : "r" (p) : "memory");	\
    return p;					\
  }
ALLOCATOR (alloc_dst, 256)
ALLOCATOR (alloc_src, 256)
ALLOCATOR (alloc_small, 64)

/* Blocks are 64-byte aligned, so each count below is exact.  */
NOINLINE char *
copies (char *dst, const char *src, char *small)
{
  memset (dst, 0, 256);			/* dst: 4 granules */
  memcpy (dst, src, 64);		/* dst: 1, src: 1 */
  __builtin_memset (small, 1, 8);	/* small: 1 (a store) */
  memmove (dst + 8, dst, 16);		/* dst: 1 + 1 (load, store) */
  return mempcpy (small + 16, src, 8);	/* small: 1, src: 1 */
}

int
main (void)
{
  char *dst = alloc_dst (), *src = alloc_src (), *small = alloc_small ();
  memset (src, 3, 256);				/* src: 4 */
  char *end = copies (dst, src, small);
  /* One more load from each of DST and SMALL.  */
  int bad = (end != small + 24) + (dst[10] != 3) + (small[16] != 3);
  free (dst);
  free (src);
  free (small);
  return bad;
}

/* { dg-final { scan-compiler-output "memprof: copies: 4 instrumented, 0 skipped \[^\\n\]*, 3 builtins" } } */
/* { dg-final { scan-compiler-output "memprof: main: \[0-9\]+ instrumented, \[0-9\]+ skipped \[^\n\]*, 1 builtins" } } */
/* { dg-final { memprof-record fn=alloc_dst<main total_access_count==8 } } */
/* { dg-final { memprof-record fn=alloc_src<main total_access_count==6 } } */
/* { dg-final { memprof-record fn=alloc_small<main total_access_count==3 } } */
