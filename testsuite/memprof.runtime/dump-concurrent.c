/* Dumps taken while other threads free blocks: every block is in exactly
   one of the process's profiles (threads merge into their own caches,
   which each dump empties).  Four threads each allocate and free 25,000
   blocks of one site while the main thread dumps 40 times; the merge of
   all the profiles must count every block once.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -I%TOP_SRCDIR%/include" } */

#include <pthread.h>
#include <stdlib.h>
#include <memprof/memprof_interface.h>

#define THREADS 4
#define BLOCKS 25000

static volatile int started;

__attribute__ ((noinline)) char *
site (void)
{
  char *p = malloc (40);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

static void *
worker (void *arg)
{
  (void) arg;
  __atomic_add_fetch (&started, 1, __ATOMIC_SEQ_CST);
  for (int i = 0; i < BLOCKS; i++)
    {
      char *p = site ();
      p[0] = 1;
      free (p);
    }
  return 0;
}

int
main (void)
{
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create (&t[i], 0, worker, 0))
      return 1;
  while (__atomic_load_n (&started, __ATOMIC_SEQ_CST) < THREADS)
    ;
  for (int i = 0; i < 40; i++)
    if (__memprof_profile_dump ())
      return 2;
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], 0);
  return 0;
}

/* { dg-final { memprof-profile-count 41 } } */
/* { dg-final { memprof-record fn=site<worker alloc_count==100000 total_size==4000000 min_size==40 max_size==40 } } */
