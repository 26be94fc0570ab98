/* The driver of the tests whose dumps must overlap other threads' work
   (dump-during-frees.c, realloc-grow-mapped-dumps.c): THREADS workers
   run WORKER, each adding 1 to DONE at its end, while the main thread
   dumps the profile without a pause until all are done.  Returns main's
   status: 0, or 1 when a thread could not start, 2 when a dump failed,
   3 when fewer than 5 dumps overlapped the work (it tested nothing).  */

#ifndef DUMP_WHILE_WORKING_H
#define DUMP_WHILE_WORKING_H

#include <pthread.h>
#include <memprof/memprof_interface.h>

static int
dump_while_working (void *(*worker) (void *), int threads,
                    volatile int *done)
{
  pthread_t t[threads];
  for (int i = 0; i < threads; i++)
    if (pthread_create (&t[i], 0, worker, 0))
      return 1;
  int dumps = 0;
  while (__atomic_load_n (done, __ATOMIC_SEQ_CST) < threads)
    {
      if (__memprof_profile_dump ())
        return 2;
      dumps++;
    }
  for (int i = 0; i < threads; i++)
    pthread_join (t[i], 0);
  return dumps >= 5 ? 0 : 3;
}

#endif
