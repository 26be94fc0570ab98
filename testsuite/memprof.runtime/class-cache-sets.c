/* One block of every size class of the runtime's allocator
   (size-classes.h), as a program allocates its long-lived objects at
   start-up: their first cache lines, and the lines of their shadow counters (one 8-byte
   counter per 64 bytes), must not pile into a few cache sets.  Each
   class has a region of its own, 64 GiB apart; with every region's
   first block at its start, the 59 blocks shared the set of every
   cache, and duktape's start-up objects evicted one another at every
   access.  Set index here: the address bits 6-15 of the line (an L2 of
   1,024 sets).  class-cache-sets-glibc.c holds glibc's heap to the same
   bound.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "size-classes.h"

#define SETS 1024
/* 59 blocks over 1,024 sets: a few may meet by chance.  */
#define MAX_PER_SET 4

static unsigned blocks_in_set[SETS], counters_in_set[SETS];

static unsigned
most (const unsigned *in_set)
{
  unsigned m = 0;
  for (int i = 0; i < SETS; i++)
    if (in_set[i] > m)
      m = in_set[i];
  return m;
}

int
main (void)
{
  static void *kept[64];
  int n = 0;
  for (size_t block = FIRST_CLASS_BLOCK; block <= LAST_CLASS_BLOCK;
       block = next_class_block (block))
    {
      char *p = malloc (block - 32);
      if (!p)
        abort ();
      p[0] = 1;
      kept[n++] = p;
      uintptr_t u = (uintptr_t) p;
      blocks_in_set[(u >> 6) % SETS]++;
      /* The counter of U's granule is at SHADOW + U / 64 * 8: its line
         index is U >> 9.  */
      counters_in_set[(u >> 9) % SETS]++;
    }
  unsigned b = most (blocks_in_set), c = most (counters_in_set);
  if (n != 59 || b > MAX_PER_SET || c > MAX_PER_SET)
    {
      fprintf (stderr, "FAILED: %d blocks; at most %u in one set, "
               "%u counters in one set (bound %d)\n", n, b, c, MAX_PER_SET);
      abort ();
    }
  for (int i = 0; i < n; i++)
    free (kept[i]);
  printf ("class-cache-sets: %d blocks spread\n", n);
  return 0;
}

/* { dg-output "class-cache-sets: 59 blocks spread\n" } */
