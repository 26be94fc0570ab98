/* Histogram mode with threads: four threads free blocks of one context
   at once, so their histograms meet in the shared table (striped locks).
   Each thread makes 2,000 blocks and writes slot 0 once and slot 2
   three times in each; a block is one thread's while it lives, so no
   increment is lost and the sums are exact.  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram -pthread" } */

#include <pthread.h>
#include <stdlib.h>

__attribute__ ((noinline, noclone)) volatile long *
make_shared_site (void)
{
  return malloc (4 * sizeof (long));
}

static void *
worker (void *arg)
{
  (void) arg;
  for (int i = 0; i < 2000; i++)
    {
      volatile long *p = make_shared_site ();
      p[0] = i;
      for (int k = 0; k < 3; k++)
	p[2] = k;
      free ((void *) p);
    }
  return NULL;
}

int
main (void)
{
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  return 0;
}

/* { dg-final { memprof-record fn=make_shared_site alloc_count==8000 histogram_slots==4 histogram.0==8000 histogram.1==0 histogram.2==24000 histogram.3==0 total_access_count==32000 } } */
