/* The live-heap counters stay exact when a second thread appears while
   the first is allocating (the switch from plain to atomic counters):
   four threads each allocate 5000 blocks of one context while the main
   thread allocates and frees; all 20000 are live together once the
   threads are joined, then the main thread frees 15000 of them.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread" } */

#include <pthread.h>
#include <stdlib.h>

#define THREADS 4
#define PER_THREAD 5000

static void *blocks[THREADS][PER_THREAD];

__attribute__ ((noinline)) static void *
shared_site (void)
{
  void *p = malloc (40);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

__attribute__ ((noinline)) static void *
churn_site (void)
{
  void *p = malloc (24);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

static void *
worker (void *arg)
{
  void **mine = arg;
  for (int i = 0; i < PER_THREAD; i++)
    mine[i] = shared_site ();
  return NULL;
}

int
main (void)
{
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create (&t[i], NULL, worker, blocks[i]) != 0)
      return 1;
  for (int i = 0; i < 20000; i++)
    free (churn_site ());
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  for (int i = 0; i < THREADS; i++)
    for (int j = PER_THREAD / 4; j < PER_THREAD; j++)
      free (blocks[i][j]);
  return 0;
}

/* { dg-final { memprof-record fn=shared_site<worker alloc_count==20000 max_live_blocks==20000 max_live_bytes==800000 blocks_at_exit==5000 bytes_at_exit==200000 } } */
/* { dg-final { memprof-record fn=churn_site<main alloc_count==20000 max_live_blocks==1 max_live_bytes==24 blocks_at_exit==0 } } */
