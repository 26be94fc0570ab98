/* Dumps while other threads free long-lived blocks: a free and a dump's
   walk of the heap may reach the same live block together, and exactly
   one of them must record it (block_claim.h).  Frees claim blocks with
   plain loads and stores unless a walk is running; with the walk's
   handshake left out, this program counted 30 to 2,500 blocks twice in
   each of 10 runs.  Two threads each allocate 20,000 blocks and free
   them all, 20 times over, while the main thread dumps without a
   pause; the merged dumps must count every block once.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -I%TOP_SRCDIR%/include" } */

#include <pthread.h>
#include <stdlib.h>
#include "dump-while-working.h"

#define THREADS 2
#define BLOCKS 20000
#define ROUNDS 20

static volatile int done;

__attribute__ ((noinline)) char *
site (void)
{
  char *p = malloc (24);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

static void *
worker (void *arg)
{
  char **v = malloc (BLOCKS * sizeof *v);
  if (!v)
    abort ();
  for (int r = 0; r < ROUNDS; r++)
    {
      for (int i = 0; i < BLOCKS; i++)
	v[i] = site ();
      for (int i = 0; i < BLOCKS; i++)
	free (v[i]);
    }
  free (v);
  __atomic_add_fetch (&done, 1, __ATOMIC_SEQ_CST);
  return arg;
}

int
main (void)
{
  return dump_while_working (worker, THREADS, &done);
}

/* { dg-final { memprof-record fn=site<worker alloc_count==800000 total_size==19200000 } } */
