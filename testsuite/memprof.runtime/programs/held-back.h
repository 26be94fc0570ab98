/* Shared by live-heap-held-back.c and live-heap-fork-held.c: blocks of
   one allocation context (SITE, always called from FILL's one call
   site), and the barriers the workers that free them park on.  */

#include <pthread.h>
#include <stdlib.h>

#define WORKERS 4

static char *blocks[2000];
static int count;
static pthread_barrier_t freed, go_on;

__attribute__ ((noinline)) static char *
site (void)
{
  char *p = malloc (40);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

/* N more blocks of the one context.  */
__attribute__ ((noinline)) static void
fill (int n)
{
  for (int i = 0; i < n; i++)
    blocks[count++] = site ();
}

static void
init_barriers (void)
{
  pthread_barrier_init (&freed, NULL, WORKERS + 1);
  pthread_barrier_init (&go_on, NULL, WORKERS + 1);
}
