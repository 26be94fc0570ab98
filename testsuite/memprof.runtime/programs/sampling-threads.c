/* Threads for sampling-calibration.exp: each of 4 threads tallies in its
   own table.  Thread T (0..3) allocates (T + 1) x 50,000 blocks of 40
   bytes at thread_site, then waits while main dumps a profile (the
   threads are alive: their tables are read where they are), then
   allocates 20,000 blocks of 72 bytes at thread_site2 and exits (its
   table moves to the shared one) before the exit dump.  Dump 0:
   thread_site 500,000 blocks, 20,000,000 bytes; dump 1: thread_site2
   80,000 blocks, 5,760,000 bytes, and no thread_site.  Main allocates
   10 blocks of 16 bytes at main_site before the first dump and 10 after:
   each dump has main_site's 10 (a site's first block after a dump is
   profiled again, so a site seen before still has a record).  */

#include <pthread.h>
#include <stdlib.h>
#include <memprof/memprof_interface.h>

#define NOINLINE __attribute__ ((noinline))
#define THREADS 4

static pthread_barrier_t phase;
static void *volatile sink;

NOINLINE void *thread_site (void) { return malloc (40); }
NOINLINE void *thread_site2 (void) { return malloc (72); }
NOINLINE void *main_site (void) { return malloc (16); }

static void
main_blocks (void)
{
  for (int i = 0; i < 10; i++)
    {
      void *p = main_site ();
      sink = p;
      free (p);
    }
}

static void *
worker (void *arg)
{
  long t = (long) arg;
  /* Each block goes through a local: SINK is shared, and another
     thread may store its own block there between the two lines.  */
  for (long i = 0; i < (t + 1) * 50000; i++)
    {
      void *p = thread_site ();
      sink = p;
      free (p);
    }
  pthread_barrier_wait (&phase);   /* Main dumps.  */
  pthread_barrier_wait (&phase);
  for (long i = 0; i < 20000; i++)
    {
      void *p = thread_site2 ();
      sink = p;
      free (p);
    }
  return NULL;
}

int
main (void)
{
  pthread_t th[THREADS];
  pthread_barrier_init (&phase, NULL, THREADS + 1);
  for (long t = 0; t < THREADS; t++)
    pthread_create (&th[t], NULL, worker, (void *) t);
  main_blocks ();
  pthread_barrier_wait (&phase);
  __memprof_profile_dump ();
  main_blocks ();
  pthread_barrier_wait (&phase);
  for (long t = 0; t < THREADS; t++)
    pthread_join (th[t], NULL);
  return 0;
}
