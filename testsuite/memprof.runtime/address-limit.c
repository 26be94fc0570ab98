/* A program that lowers its own address-space limit while it runs
   (prlimit --as, as Tcl's test suite does to its children) still gets
   its whole profile: the runtime's record table is reserved at start-up,
   and the writer falls back to a static buffer.  Here the limit leaves
   1 MiB above what is mapped; before, the dump's 128 MiB reservation
   failed and every record was lost, or the writer's buffer failed and
   the dump crashed.  address-limit-none.c leaves nothing.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mapped-bytes.h"

#ifndef SLACK
#define SLACK (1L << 20)
#endif


__attribute__ ((noinline)) static char *
kept (int i)
{
  return malloc (100 + i);
}

__attribute__ ((noinline)) static char *
freed (int i)
{
  return malloc (200 + i);
}

int
main (void)
{
  static char *k[50], *f[50];
  for (int i = 0; i < 50; i++)
    {
      k[i] = kept (i);
      k[i][0] = 1;
      f[i] = freed (i);
      f[i][0] = 1;
    }
  long limit = mapped_bytes () + SLACK;
  struct rlimit r = { (rlim_t) limit, (rlim_t) limit };
  if (setrlimit (RLIMIT_AS, &r) != 0)
    abort ();
  for (int i = 0; i < 50; i++)
    free (f[i]);
  return 0;
}

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=kept<main alloc_count==50 total_size==6225 total_access_count==50 blocks_at_exit==50 } } */
/* { dg-final { memprof-record fn=freed<main alloc_count==50 total_size==11225 total_access_count==50 blocks_at_exit==0 } } */
