/* The program fault-injection.exp runs 200 times: four threads allocate
   and free blocks of many sizes (some large enough to be mapped) without
   pause, and after a random delay (from the seed, argv[1]) the process
   is hit by what argv[2] names: "term", SIGTERM to the process (so to
   any worker: the main thread blocks it); "segv", SIGSEGV raised in a
   random worker; "usr2", three SIGUSR2 to the process (the dump signal)
   at random intervals, then a normal exit.  */

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 4

static volatile int stop;

static unsigned
next (unsigned *seed)
{
  *seed = *seed * 1103515245 + 12345;
  return *seed >> 8;
}

__attribute__ ((noinline)) char *
fault_site (size_t n)
{
  char *p = malloc (n);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

static void *
worker (void *arg)
{
  unsigned seed = (unsigned) (size_t) arg;
  char *live[32] = { 0 };
  while (!stop)
    {
      unsigned r = next (&seed);
      int k = r % 32;
      free (live[k]);
      size_t n = r % 64 == 0 ? 150000 + r % 50000 : 16 + r % 3000;
      live[k] = fault_site (n);
      live[k][0] = 1;
      if (r % 7 == 0)
        live[k] = realloc (live[k], n / 2 + 1);
    }
  for (int k = 0; k < 32; k++)
    free (live[k]);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    return 2;
  unsigned seed = (unsigned) atoi (argv[1]) * 2654435761u + 1;
  const char *mode = argv[2];
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create (&t[i], 0, worker, (void *) (size_t) (seed + i)))
      return 2;
  sigset_t block;
  sigemptyset (&block);
  sigaddset (&block, SIGTERM);
  sigaddset (&block, SIGUSR2);
  pthread_sigmask (SIG_BLOCK, &block, 0);

  usleep (5000 + next (&seed) % 50000);
  if (!strcmp (mode, "usr2"))
    {
      for (int i = 0; i < 3; i++)
        {
          kill (getpid (), SIGUSR2);
          usleep (next (&seed) % 10000);
        }
      stop = 1;
      for (int i = 0; i < THREADS; i++)
        pthread_join (t[i], 0);
      return 0;
    }
  if (!strcmp (mode, "term"))
    kill (getpid (), SIGTERM);
  else if (!strcmp (mode, "segv"))
    pthread_kill (t[next (&seed) % THREADS], SIGSEGV);
  else
    return 2;
  sleep (10);   /* The signal ends the process long before.  */
  return 3;
}
