/* A large block freed and allocated again (a compiler's token pools,
   one set per file: tcc) reuses its mapping instead of mapping and
   faulting in fresh pages each time, as glibc reuses a freed mapped
   chunk's size from its heap: 200 rounds of a 4 MiB block, every page
   written, take fewer minor faults than a quarter of one per page and
   round (the old runtime took 230,406).  calloc of a mapping a dirty
   block left is zero in every usable byte, and malloc_usable_size of a
   block in a reused mapping is that of a fresh one.  A block in a
   reused mapping counts its own accesses only, the counters its
   mapping's last block left being zeroed in place: 1,000 stores, one
   per granule.
   large-blocks-kept-glibc.c holds glibc to the same bounds (its first
   block is mapped, the others come from its heap: there the rounds'
   blocks are compared with each other).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define SIZE ((size_t) 4 << 20)
#define ROUNDS 200

/* The pages are written: no dead store before free.  */
static void
written (void *p)
{
  __asm__ volatile ("" : : "r" (p) : "memory");
}

__attribute__ ((noinline)) static void
counted_block (void)
{
  volatile char *p = malloc (SIZE);
  for (int i = 0; i < 1000; i++)
    p[i * 64] = 1;
  free ((void *) p);
}

static long
minor_faults (void)
{
  struct rusage u;
  getrusage (RUSAGE_SELF, &u);
  return u.ru_minflt;
}

int
main (void)
{
  char *first = malloc (SIZE);
  size_t usable = malloc_usable_size (first);
  memset (first, 0xab, SIZE);
  written (first);
  free (first);
  long before = minor_faults ();
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (SIZE);
#ifdef GLIBC_REFERENCE
      if (i == 0 && p)
        usable = malloc_usable_size (p);
#endif
      if (!p || malloc_usable_size (p) != usable)
        {
          fprintf (stderr, "FAILED: round %d: usable %zu, first %zu\n", i,
                   p ? malloc_usable_size (p) : 0, usable);
          abort ();
        }
      memset (p, i, SIZE);
      written (p);
      free (p);
    }
  long faults = minor_faults () - before;
  long bound = ROUNDS * (long) (SIZE / 4096) / 4;
  if (faults >= bound)
    {
      fprintf (stderr, "FAILED: %ld minor faults in %d rounds (bound %ld)\n",
               faults, ROUNDS, bound);
      abort ();
    }
  char *dirty = malloc (SIZE);
  memset (dirty, 0x5a, SIZE);
  written (dirty);
  free (dirty);
  unsigned char *zero = calloc (1, SIZE);
  size_t n = malloc_usable_size (zero);
  for (size_t i = 0; i < n; i++)
    if (zero[i])
      {
        fprintf (stderr, "FAILED: calloc byte %zu of %zu is %d\n", i, n,
                 zero[i]);
        abort ();
      }
  free (zero);
  counted_block ();
  printf ("large-blocks-kept: %d rounds\n", ROUNDS);
  return 0;
}

/* { dg-output "large-blocks-kept: 200 rounds\n" } */
/* { dg-final { memprof-record fn=counted_block<main alloc_count==1 total_size==4194304 total_access_count==1000 } } */
