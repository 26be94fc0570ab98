/* realloc that grows a large (mapped) block grows its mapping (mremap),
   as glibc does, instead of copying it into a new block: the realloc
   calls themselves fault next to no pages in, where copying the 64 MiB
   block faults in 16,384 new ones (the runtime that copied: 16,398 at
   the first realloc; now 0 to 16).  Every byte malloc_usable_size
   promised survives, slack included.  Each realloc is still a new
   allocation under its caller's stack: the old life keeps the accesses
   made before it, the new one counts only its own, none of the old
   life's (the 256 MiB block's tail and two bytes are written: 50%
   utilised).  In round 0 the mapping of a freed spacer leaves room above
   the block, so the kernel can grow it where it is; in round 1 it moves.
   The variants run this program sampled (-sampled, -unsampled), in
   histogram mode (-histogram) and uninstrumented, against glibc
   (-glibc).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#define MIB ((size_t) 1 << 20)

#include "page-pattern.h"

/* A copy of the 64 MiB block faults at least 16,384 pages in.  */
#define MAX_FAULTS 1024

static long
faults (void)
{
  struct rusage r;
  getrusage (RUSAGE_SELF, &r);
  return r.ru_minflt;
}

/* The runtime maps its tables at its first allocations: before the
   spacer, so that the spacer's mapping is right above the block's.  */
__attribute__ ((noinline)) static void
warm_up (void)
{
  char *volatile p = malloc (100);
  p[0] = 1;
  free (p);
}

__attribute__ ((noinline)) static char *
make_spacer (void)
{
  return malloc (256 * MIB);
}

__attribute__ ((noinline)) static char *
make (void)
{
  return malloc (64 * MIB);
}

__attribute__ ((noinline)) static char *
grow (char *p)
{
  return realloc (p, 128 * MIB);
}

__attribute__ ((noinline)) static char *
grow_more (char *p)
{
  return realloc (p, 256 * MIB);
}

/* FN (P) for a block whose USABLE bytes hold the pattern: few page
   faults, the bytes kept, at least SIZE usable bytes.  (Every byte of
   the block was written, so its shadow, read as its life ends, is all
   in memory: reading the untouched shadow of a block half written
   faults in zero pages, up to an eighth of a copy's faults.)  */
__attribute__ ((noinline, noclone)) static char *
grown (char *(*fn) (char *), char *p, size_t usable, size_t size,
       const char *what, int *in_place)
{
  long before = faults ();
  char *q = fn (p);
  long taken = faults () - before;
  if (!q || malloc_usable_size (q) < size)
    {
      fprintf (stderr, "FAILED: %s failed\n", what);
      abort ();
    }
  if (taken > MAX_FAULTS)
    {
      fprintf (stderr, "FAILED: %s took %ld page faults (copied?)\n", what,
               taken);
      abort ();
    }
  *in_place += q == p;
  check (q, usable, what);
  return q;
}

int
main (void)
{
  /* Transparent huge pages would make a copy's faults 512 times fewer.  */
  prctl (PR_SET_THP_DISABLE, 1, 0, 0, 0);
  fill_pages ();
  warm_up ();
  int in_place = 0;
  for (int round = 0; round < 2; round++)
    {
      char *spacer = round == 0 ? make_spacer () : NULL;
      char *p = make ();
      free (spacer);
      if (!p)
        abort ();
      size_t usable = malloc_usable_size (p);
      fill (p, 0, usable);
      char *q = grown (grow, p, usable, 128 * MIB, "realloc to 128 MiB",
                       &in_place);
      size_t usable2 = malloc_usable_size (q);
      fill (q, 0, usable2);
      char *r = grown (grow_more, q, usable2, 256 * MIB, "realloc to 256 MiB",
                       &in_place);
      size_t usable3 = malloc_usable_size (r);
      fill (r, 128 * MIB, usable3);
      ((volatile char *) r)[0] = value_at (0);
      ((volatile char *) r)[8] = value_at (8);
      check (r, usable3, "the grown block");
      free (r);
    }
  printf ("grew 4 blocks without copying (%d in place)\n", in_place);
  return 0;
}

/* { dg-output "grew 4 blocks without copying \\(\[0-4\] in place\\)" } */
/* { dg-final { memprof-record fn=make_spacer<main alloc_count==1 total_size==268435456 total_access_count==0 } } */
/* { dg-final { memprof-record fn=make<main alloc_count==2 total_size==134217728 total_access_count==2097152 min_access_count==1048576 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=grow<grown<main alloc_count==2 total_size==268435456 total_access_count==4194304 min_access_count==2097152 max_access_count==2097152 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=grow_more<grown<main alloc_count==2 total_size==536870912 total_access_count==4194308 min_access_count==2097154 max_access_count==2097154 min_percent_utilized==50 max_percent_utilized==50 } } */
