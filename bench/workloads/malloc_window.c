/* A malloc micro-benchmark, the shape of glibc's bench-malloc-thread:
   3 threads, each keeping a sliding window of 1,024 live blocks of
   random size 16..4096 bytes; each step frees the oldest block of its
   window and allocates a new one in its place, writing its first and
   last bytes.  Almost nothing but malloc and free: what a profiler adds
   per allocation is the whole difference.  */

#include "bench-common.h"
#include <pthread.h>

#define THREADS 3
#define WINDOW 1024

struct worker
{
  long steps;
  uint64_t seed;
  uint64_t checksum;
};

static void *
run_worker (void *arg)
{
  struct worker *w = arg;
  unsigned char *slot[WINDOW];
  size_t size[WINDOW];
  uint64_t rng = w->seed, h = 0;
  for (int i = 0; i < WINDOW; i++)
    {
      size[i] = 16;
      slot[i] = malloc (16);
      slot[i][0] = slot[i][15] = (unsigned char) i;
    }
  for (long s = 0; s < w->steps; s++)
    {
      int i = (int) (s % WINDOW);
      h = bench_mix (h, slot[i][0] + slot[i][size[i] - 1]);
      free (slot[i]);
      size_t n = 16 + (size_t) (bench_rand (&rng) % (4096 - 16 + 1));
      slot[i] = malloc (n);
      size[i] = n;
      slot[i][0] = (unsigned char) n;
      slot[i][n - 1] = (unsigned char) (n >> 8);
    }
  for (int i = 0; i < WINDOW; i++)
    free (slot[i]);
  w->checksum = h;
  return NULL;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  struct worker w[THREADS];
  pthread_t tid[THREADS];
  for (int t = 0; t < THREADS; t++)
    {
      w[t].steps = 20000 * scale;
      w[t].seed = 0xa110c + (uint64_t) t * 7919;
      if (pthread_create (&tid[t], NULL, run_worker, &w[t]) != 0)
	{
	  fprintf (stderr, "malloc_window: pthread_create failed\n");
	  return 1;
	}
    }
  uint64_t h = 0;
  for (int t = 0; t < THREADS; t++)
    {
      pthread_join (tid[t], NULL);
      h = bench_mix (h, w[t].checksum);
    }
  printf ("malloc_window %016llx\n", (unsigned long long) h);
  return 0;
}
