/* A struct holding a mutex and a condition variable (pigz's yarn
   lock_s): the program hands them to pthread functions, whose accesses
   are not counted, so they read 0 accesses however hot they are; they
   are not cold, and the suggestion does not tell to move them out (it
   told to move "mutex, cond").  The struct's own cold bytes still are.
   Each lock's value is written once and read and written in 10 rounds:
   3,100 accesses.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram -pthread" } */

#include <pthread.h>
#include <stdlib.h>

struct lock_s
{
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  long value;
  char spare[64];
};

__attribute__ ((noinline)) struct lock_s *
new_lock (void)
{
  struct lock_s *l = malloc (sizeof *l);
  pthread_mutex_init (&l->mutex, 0);
  pthread_cond_init (&l->cond, 0);
  l->value = 0;
  return l;
}

int
main (void)
{
  struct lock_s *l[100];
  long s = 0;
  for (int i = 0; i < 100; i++)
    l[i] = new_lock ();
  for (int r = 0; r < 10; r++)
    for (int i = 0; i < 100; i++)
      {
        pthread_mutex_lock (&l[i]->mutex);
        l[i]->value++;
        s += l[i]->value;
        pthread_mutex_unlock (&l[i]->mutex);
      }
  for (int i = 0; i < 100; i++)
    {
      pthread_mutex_destroy (&l[i]->mutex);
      pthread_cond_destroy (&l[i]->cond);
      free (l[i]);
    }
  return s != 5500;
}

/* { dg-final { memprof-record fn=new_lock<main alloc_count==100 fields(value).accesses==3100 fields(mutex).cold==0 fields(cond).cold==0 fields(spare).cold==1 } } */
/* { dg-final { memprof-fields-scan {^ +0 +40 +0 +0\.0%  mutex  \[C library state \(pthread_mutex_t\): used inside the library, whose accesses are not counted\]$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(spare: 64 bytes\) out of lock_s: } } } */
