/* After fork the child writes its own profile holding only what it did
   after the fork: not the parent's records, not the blocks it inherited
   (freeing one is not an event of the child).  The merged profiles
   therefore count every block exactly once.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

__attribute__ ((noinline)) void *
before_fork (void)
{
  void *p = malloc (100);
  keep (p);
  return p;
}

__attribute__ ((noinline)) void *
in_child (void)
{
  void *p = malloc (200);
  keep (p);
  return p;
}

__attribute__ ((noinline)) void *
in_parent (void)
{
  void *p = malloc (300);
  keep (p);
  return p;
}

int
main (void)
{
  void *inherited = 0;
  for (int i = 0; i < 4; i++)
    {
      void *p = before_fork ();
      if (i == 0)
        inherited = p;
      else
        free (p);
    }
  pid_t pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      for (int i = 0; i < 5; i++)
        free (in_child ());
      free (inherited);
      exit (0);
    }
  for (int i = 0; i < 7; i++)
    free (in_parent ());
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return 1;
  return 0;
}

/* { dg-final { memprof-profile-count 2 } } */
/* 3 freed in the parent before the fork, 1 live in the parent at exit.  */
/* { dg-final { memprof-record fn=before_fork<main alloc_count==4 total_size==400 } } */
/* { dg-final { memprof-record fn=in_child<main alloc_count==5 total_size==1000 } } */
/* { dg-final { memprof-record fn=in_parent<main alloc_count==7 total_size==2100 } } */
