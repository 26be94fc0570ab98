/* Kept mappings (large-blocks-kept.c) do not stay resident once the
   program has moved on to larger blocks: two 4 MiB blocks written and
   freed, then a 16 MiB block asked for (array_sweep's grids, then its
   nodes): the 16 MiB block's mapping gives the kept 4 MiB ones back,
   with the pages of their counters, so what is resident is what it was
   before the grids (within 2 MiB), as under glibc (the -glibc variant).
   Before, the bench's array_sweep peaked 10 MiB higher.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mapped-bytes.h"

#define MIB ((size_t) 1 << 20)


int
main (void)
{
  long before = resident_bytes ();
  char *a = malloc (4 * MIB), *b = malloc (4 * MIB);
  if (!a || !b)
    abort ();
  memset (a, 1, 4 * MIB);
  memset (b, 2, 4 * MIB);
  __asm__ volatile ("" : : "r" (a), "r" (b) : "memory");
  free (a);
  free (b);
  char *nodes = malloc (16 * MIB);
  if (!nodes)
    abort ();
  long after = resident_bytes ();
  if (after > before + (long) (2 * MIB))
    {
      fprintf (stderr, "FAILED: %ld bytes resident, %ld before the grids\n",
               after, before);
      abort ();
    }
  free (nodes);
  printf ("large-blocks-kept-rss: ok\n");
  return 0;
}

/* { dg-output "large-blocks-kept-rss: ok\n" } */
