/* While several threads allocate, each holds its changes to the live
   heap back in its own cache (libmemprof/live_heap.h) and publishes
   them when they would raise a maximum, reach 64 KiB or 256 blocks, at
   its exit and at every dump.  Here worker threads free blocks of one
   context and hold the frees back (each well under both limits); had
   they not been published at the workers' exit (phase 0) or at the dump
   while the workers wait (phase 1), the main thread's next allocations
   would seem to add to blocks already freed and raise the context's
   maximum past its true 800.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -I%TOP_SRCDIR%/include" } */

#include <memprof/memprof_interface.h>

#include "programs/held-back.h"

struct range
{
  int begin, end;
  int wait;   /* Park on the barriers after freeing.  */
};

static void *
free_range (void *arg)
{
  struct range *r = arg;
  for (int i = r->begin; i < r->end; i++)
    free (blocks[i]);
  if (r->wait)
    {
      pthread_barrier_wait (&freed);
      pthread_barrier_wait (&go_on);
    }
  return NULL;
}

/* Free blocks [BEGIN, BEGIN + N) in WORKERS threads.  */
static void
start_workers (pthread_t *t, struct range *r, int begin, int n, int wait)
{
  for (int i = 0; i < WORKERS; i++)
    {
      r[i].begin = begin + i * n / WORKERS;
      r[i].end = begin + (i + 1) * n / WORKERS;
      r[i].wait = wait;
      if (pthread_create (&t[i], NULL, free_range, &r[i]) != 0)
        exit (1);
    }
}

int
main (void)
{
  static const int sizes[3] = { 800, 500, 700 };
  pthread_t t[WORKERS];
  struct range r[WORKERS];
  init_barriers ();
  for (int phase = 0; phase < 3; phase++)
    {
      int begin = count;
      fill (sizes[phase]);   /* One call site: one context.  */
      if (phase == 0)
        {
          /* 200 frees per worker, published at its exit.  */
          start_workers (t, r, begin, sizes[phase], 0);
          for (int i = 0; i < WORKERS; i++)
            pthread_join (t[i], NULL);
        }
      else if (phase == 1)
        {
          /* 125 frees per worker, published by the dump.  */
          start_workers (t, r, begin, sizes[phase], 1);
          pthread_barrier_wait (&freed);
          if (__memprof_profile_dump () != 0)
            return 1;
        }
    }
  pthread_barrier_wait (&go_on);
  for (int i = 0; i < WORKERS; i++)
    pthread_join (t[i], NULL);
  return 0;
}

/* { dg-final { memprof-profile-count 2 } } */
/* { dg-final { memprof-record fn=site<fill alloc_count==2000 total_size==80000 max_live_blocks==800 max_live_bytes==32000 blocks_at_exit==700 bytes_at_exit==28000 } } */
