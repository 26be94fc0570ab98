/* malloc_usable_size reports what glibc reports for a block of the same
   request carved from its heap: max (24, round_up (size + 8, 16) - 8).
   A program that grows into its usable bytes (redis's strings) or adds
   them up for its own accounting then behaves as under glibc.  The one
   difference: a request a few bytes below the end of one of the
   runtime's size classes gets the rest of that block, less than glibc
   gives but never less than the request.  Every size up to
   4 KiB, then sizes up to 120,000 bytes (below glibc's mmap threshold),
   by malloc, calloc and realloc; nothing is freed before the end, so
   glibc carves every block from its top chunk and its figures are
   exact.  malloc-usable-sizes-glibc.c runs it uninstrumented, against
   glibc itself.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include "size-classes.h"

static unsigned long checks;

static size_t
glibc_usable (size_t size)
{
  size_t u = ((size + 8 + 15) & ~(size_t) 15) - 8;
  return u < 24 ? 24 : u;
}

/* The user bytes of the runtime's block for SIZE: the smallest size
   class (libmemprof/size_classes.h: 32-byte steps up to 1 KiB, then
   four classes per power of two) holding SIZE and a 32-byte header.  */
static size_t
runtime_room (size_t size)
{
  size_t need = size + 32, block = FIRST_CLASS_BLOCK;
  while (block < need)
    block = next_class_block (block);
  return block - 32;
}

static size_t
expected (size_t size)
{
  size_t glibc = glibc_usable (size);
#ifndef GLIBC_REFERENCE
  if (runtime_room (size) < glibc)
    return runtime_room (size);
#endif
  return glibc;
}

static void *kept[8192];
static int nkept;

static void
check (void *p, size_t size, const char *how)
{
  size_t got = malloc_usable_size (p);
  checks++;
  if (got != expected (size))
    {
      fprintf (stderr, "FAILED: %s (%zu): usable %zu, expected %zu\n", how,
               size, got, expected (size));
      abort ();
    }
  kept[nkept++] = p;
}

int
main (void)
{
  for (size_t size = 0; size <= 4096; size++)
    check (malloc (size), size, "malloc");
  for (size_t size = 4097; size < 120000; size += 997)
    check (malloc (size), size, "malloc");
  for (size_t size = 0; size <= 2048; size += 3)
    check (calloc (1, size), size, "calloc");
  /* A block realloc'd to a new size is a block of that size.  */
  for (size_t size = 1; size <= 3000; size += 11)
    {
      void *p = malloc (size);
      check (realloc (p, size + 100), size + 100, "realloc");
    }
  printf ("usable-sizes checks: %lu\n", checks);
  for (int i = 0; i < nkept; i++)
    free (kept[i]);
  return 0;
}

/* { dg-output "usable-sizes checks: 5170\n" } */
