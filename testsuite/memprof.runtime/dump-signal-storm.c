/* MEMPROF_OPTIONS=dump_signal=SIGUSR2 under an allocation storm: eight
   threads allocate and free 20,000 blocks each while the main thread
   asks for five profiles with SIGUSR2, each time waiting until the file
   is there.  Six files (five on request, one at exit), and their merge
   counts every block exactly once: none lost, none twice.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "dump_signal=SIGUSR2" } */

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "programs/profile-dir.h"

#define THREADS 8
#define BLOCKS 20000

static volatile int started;

__attribute__ ((noinline)) char *
storm_site (size_t n)
{
  char *p = malloc (n);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

static void *
worker (void *arg)
{
  unsigned seed = (unsigned) (size_t) arg;
  char *live[16] = { 0 };
  __atomic_add_fetch (&started, 1, __ATOMIC_SEQ_CST);
  for (int i = 0; i < BLOCKS; i++)
    {
      seed = seed * 1103515245 + 12345;
      int k = (seed >> 16) % 16;
      free (live[k]);
      live[k] = storm_site (16 + (seed >> 8) % 2000);
      live[k][0] = 1;
    }
  for (int k = 0; k < 16; k++)
    free (live[k]);
  return 0;
}

int
main (void)
{
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create (&t[i], 0, worker, (void *) (size_t) (i + 1)))
      return 1;
  while (__atomic_load_n (&started, __ATOMIC_SEQ_CST) < THREADS)
    ;
  for (int d = 1; d <= 5; d++)
    {
      kill (getpid (), SIGUSR2);
      for (int wait = 0; profiles_written () < d; wait++)
        {
          if (wait == 20000)
            return 2;   /* 20 s without the profile.  */
          usleep (1000);
        }
    }
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], 0);
  return 0;
}

/* { dg-final { memprof-profile-count 6 } } */
/* { dg-final { memprof-record fn=storm_site alloc_count==160000 } } */
