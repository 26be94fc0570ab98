/* Dumps while threads come and go: every block is counted exactly once
   over the merged dumps.  A spawner starts 256 short-lived threads, 4
   at a time; each allocates 60 blocks at one site and frees them (its
   frees go into the HIB and live-heap caches it makes on first use)
   while the main thread writes 40 dumps.  A dump must never take a
   cache its owner made after the dump asked for the caches (the owner
   fills it without looking), nor miss one it asked for.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -I%TOP_SRCDIR%/include" } */

#include <pthread.h>
#include <stdlib.h>
#include <memprof/memprof_interface.h>

#define ROUNDS 64
#define BATCH 4
#define BLOCKS 60
#define DUMPS 40

static volatile int spawning = 1;

__attribute__ ((noinline)) static void *
site (void)
{
  void *p = malloc (48);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

static void *
worker (void *arg)
{
  void *b[BLOCKS];
  (void) arg;
  for (int i = 0; i < BLOCKS; i++)
    b[i] = site ();
  for (int i = 0; i < BLOCKS; i++)
    free (b[i]);
  return NULL;
}

static void *
spawner (void *arg)
{
  (void) arg;
  for (int r = 0; r < ROUNDS; r++)
    {
      pthread_t t[BATCH];
      for (int i = 0; i < BATCH; i++)
        if (pthread_create (&t[i], NULL, worker, NULL) != 0)
          exit (1);
      for (int i = 0; i < BATCH; i++)
        pthread_join (t[i], NULL);
    }
  spawning = 0;
  return NULL;
}

int
main (void)
{
  pthread_t s;
  if (pthread_create (&s, NULL, spawner, NULL) != 0)
    return 1;
  for (int d = 0; d < DUMPS; d++)
    if (__memprof_profile_dump () != 0)
      return 1;
  pthread_join (s, NULL);
  return 0;
}

/* { dg-final { memprof-profile-count 41 } } */
/* { dg-final { memprof-record fn=site<worker alloc_count==15360 total_size==737280 min_size==48 max_size==48 } } */
