/* Dumps while other threads grow large (mapped) blocks by realloc: the
   mapping of a block moves (mremap) while a dump's walk of the heap may
   be reading the list of mapped blocks.  The walk must never read a
   block whose pages are moving, and must count every life once: the
   old one ends at the realloc, the new one starts there.  Two threads
   each grow 300 blocks from 200 KiB in 16 steps of 64 KiB (each step
   past the block's usable size), while the main thread dumps without a
   pause; the merged dumps must count every life once.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -I%TOP_SRCDIR%/include" } */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dump-while-working.h"

#define THREADS 2
#define ROUNDS 300
#define STEPS 16
#define START (200 * 1024)
#define STEP (64 * 1024)

static volatile int done;

__attribute__ ((noinline)) static char *
make (void)
{
  return malloc (START);
}

__attribute__ ((noinline)) static char *
grow (char *p, size_t n)
{
  return realloc (p, n);
}

static void *
worker (void *arg)
{
  for (int r = 0; r < ROUNDS; r++)
    {
      size_t n = START;
      char *p = make ();
      if (!p)
        abort ();
      memset (p, 1, n);
      for (int s = 0; s < STEPS; s++)
        {
          p = grow (p, n + STEP);
          if (!p || p[0] != 1 || p[n - 1] != 1)
            abort ();
          memset (p + n, 1, STEP);
          n += STEP;
        }
      free (p);
    }
  __atomic_add_fetch (&done, 1, __ATOMIC_SEQ_CST);
  return arg;
}

int
main (void)
{
  return dump_while_working (worker, THREADS, &done);
}

/* 600 blocks of 200 KiB; 9,600 lives from the reallocs, the step-th of
   each block's 16 of 200 KiB + (step + 1) * 64 KiB: 600 * (16 * 204,800
   + 136 * 65,536) bytes.  */
/* { dg-final { memprof-record fn=make<worker alloc_count==600 total_size==122880000 } } */
/* { dg-final { memprof-record fn=grow<worker alloc_count==9600 total_size==7313817600 } } */
