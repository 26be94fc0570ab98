/* Allocation accounting is exact under concurrency: 8 threads allocate
   100,000 blocks at one site; half are freed by the allocating thread,
   half by other threads afterwards.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread" } */

#include <pthread.h>
#include <stdlib.h>

#define THREADS 8
#define PER_THREAD 12500

static void *blocks[THREADS][PER_THREAD];

__attribute__ ((noinline)) void *
site (void)
{
  void *p = malloc (48);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

static void *
allocate_some (void *arg)
{
  long t = (long) arg;
  for (int i = 0; i < PER_THREAD; i++)
    {
      blocks[t][i] = site ();
      if (i % 2)
        free (blocks[t][i]);
    }
  return 0;
}

static void *
free_others (void *arg)
{
  long t = (long) arg;
  for (int i = 0; i < PER_THREAD; i += 2)
    free (blocks[t][i]);
  return 0;
}

int
main (void)
{
  pthread_t th[THREADS];
  for (long t = 0; t < THREADS; t++)
    pthread_create (&th[t], 0, allocate_some, (void *) t);
  for (int t = 0; t < THREADS; t++)
    pthread_join (th[t], 0);
  for (long t = 0; t < THREADS; t++)
    pthread_create (&th[t], 0, free_others, (void *) ((t + 1) % THREADS));
  for (int t = 0; t < THREADS; t++)
    pthread_join (th[t], 0);
  return 0;
}

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=site<allocate_some alloc_count==100000 total_size==4800000 min_size==48 max_size==48 } } */
