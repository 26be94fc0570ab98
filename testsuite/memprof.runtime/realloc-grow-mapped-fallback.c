/* realloc of a large (mapped) block when its mapping cannot grow.  A
   block whose mapping the program split (madvise on one of its pages)
   is one the kernel will not resize: realloc copies it into a new block
   instead, as glibc does, every usable byte kept, and the old block is
   freed as any other (not taken for a double free).  Where no memory is
   left at all (RLIMIT_AS), realloc fails with ENOMEM and the block goes
   on living as it was: the accesses after the failed call are its own.
   realloc-grow-mapped-fallback-glibc.c runs this program against glibc.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define MIB ((size_t) 1 << 20)

#include "page-pattern.h"

static void
fail (const char *what)
{
  fprintf (stderr, "FAILED: %s\n", what);
  abort ();
}

__attribute__ ((noinline)) static char *
make_split (void)
{
  return malloc (8 * MIB);
}

__attribute__ ((noinline)) static char *
grow_split (char *p)
{
  return realloc (p, 16 * MIB);
}

__attribute__ ((noinline)) static char *
make_kept (void)
{
  return malloc (6 * MIB);
}

__attribute__ ((noinline)) static char *
grow_refused (char *p)
{
  return realloc (p, 512 * MIB);
}

/* The process's address space now, in bytes.  */
static size_t
address_space (void)
{
  FILE *f = fopen ("/proc/self/statm", "r");
  unsigned long pages_mapped = 0;
  if (!f || fscanf (f, "%lu", &pages_mapped) != 1)
    fail ("/proc/self/statm unreadable");
  fclose (f);
  return pages_mapped * PAGE;
}

int
main (void)
{
  fill_pages ();

  /* A mapping of two parts (one page marked not to be dumped): mremap
     refuses it (EFAULT), realloc copies.  */
  char *p = make_split ();
  size_t usable = malloc_usable_size (p);
  fill (p, 0, usable);
  uintptr_t middle = ((uintptr_t) p + 4 * MIB) & ~(PAGE - 1);
  if (madvise ((void *) middle, PAGE, MADV_DONTDUMP) != 0)
    fail ("madvise");
  char *q = grow_split (p);
  if (!q || q == p || malloc_usable_size (q) < 16 * MIB)
    fail ("realloc of a split mapping");
  check (q, usable, "realloc of a split mapping");
  fill (q, 8 * MIB, malloc_usable_size (q));
  free (q);

  /* No address space left: ENOMEM, the block unchanged and still live.  */
  char *k = make_kept ();
  usable = malloc_usable_size (k);
  fill (k, 0, usable);
  struct rlimit old, low;
  if (getrlimit (RLIMIT_AS, &old) != 0)
    fail ("getrlimit");
  low = old;
  low.rlim_cur = address_space () + 64 * MIB;
  if (setrlimit (RLIMIT_AS, &low) != 0)
    fail ("setrlimit");
  errno = 0;
  char *r = grow_refused (k);
  int err = errno;
  if (setrlimit (RLIMIT_AS, &old) != 0)
    fail ("setrlimit back");
  if (r || err != ENOMEM)
    fail ("realloc past RLIMIT_AS did not fail with ENOMEM");
  if (malloc_usable_size (k) != usable)
    fail ("the failed realloc changed the block");
  check (k, usable, "the block a realloc failed to grow");
  *(volatile char *) k = value_at (0);
  free (k);
  printf ("fallbacks done\n");
  return 0;
}

/* { dg-output "fallbacks done\n" } */
/* { dg-final { memprof-record fn=make_split<main alloc_count==1 total_size==8388608 total_access_count==131072 } } */
/* { dg-final { memprof-record fn=grow_split<main alloc_count==1 total_size==16777216 total_access_count==131072 min_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=make_kept<main alloc_count==1 total_size==6291456 total_access_count==98305 } } */
/* { dg-final { memprof-no-record fn=grow_refused } } */
