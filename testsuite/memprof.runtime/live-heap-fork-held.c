/* A forked child publishes the live-heap changes its parent's threads
   held back (libmemprof/live_heap.h): those threads are gone in the
   child, their blocks' frees are not.  Four workers free the 800 blocks
   of one context, 200 each (held back: under 64 KiB and 256 blocks),
   and wait while the main thread forks; the child allocates 500 more.
   The process's peak, which the child carries on, stays the 800 blocks
   (32,000 bytes) and the C library's few blocks for the threads; had
   the frees been lost, the child would count 52,000 bytes and more.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread" } */

#include <sys/wait.h>
#include <unistd.h>

#include "programs/held-back.h"

static void *
free_quarter (void *arg)
{
  int q = (int) (long) arg;
  for (int i = q * 200; i < (q + 1) * 200; i++)
    free (blocks[i]);
  pthread_barrier_wait (&freed);
  pthread_barrier_wait (&go_on);
  return NULL;
}

int
main (void)
{
  static const int sizes[2] = { 800, 500 };
  pthread_t t[WORKERS];
  init_barriers ();
  for (int phase = 0; phase < 2; phase++)
    {
      fill (sizes[phase]);   /* One call site: one context.  */
      if (phase == 1)
        exit (0);            /* The child, with its 500 live.  */
      for (long i = 0; i < WORKERS; i++)
        if (pthread_create (&t[i], NULL, free_quarter, (void *) i) != 0)
          return 1;
      pthread_barrier_wait (&freed);
      pid_t pid = fork ();
      if (pid < 0)
        return 1;
      if (pid == 0)
        continue;
      pthread_barrier_wait (&go_on);
      for (int i = 0; i < WORKERS; i++)
        pthread_join (t[i], NULL);
      int status;
      if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
          || WEXITSTATUS (status) != 0)
        return 1;
      return 0;
    }
  return 1;
}

/* { dg-final { memprof-profile-count 2 } } */
/* The child's blocks are a context of its own (its profile holds only
   what it did, fork.c), so the two records share their stack.  */
/* The report reads both profiles: a merge of two runs.  */
/* { dg-final { memprof-dump-scan {^live: +32,000 bytes in 800 blocks at the peak; max 32,000 bytes, 800 blocks \(peak and max: the largest of any run\); 0 bytes in 0 blocks at exit \(all runs\)$} } } */
/* { dg-final { memprof-dump-scan {^live: +0 bytes in 0 blocks at the peak; max 20,000 bytes, 500 blocks \(peak and max: the largest of any run\); 20,000 bytes in 500 blocks at exit \(all runs\)$} } } */
/* { dg-final { memprof-dump-scan {^Peak: 3[0-9],[0-9]{3} bytes live in 80[0-9] blocks, } } } */
