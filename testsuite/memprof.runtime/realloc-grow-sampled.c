/* The sampling mode: a block of the runtime's that realloc grows in
   place for an unsampled allocation stays where it is (as glibc keeps a
   block that fits), standing for nothing, instead of being copied into
   a C library block, and back at the next sampled call.  grow's first
   call at its site is profiled (weight 1); at a 1 GiB interval the
   others are unsampled: the block never moves, and its bytes are all
   the program's.  */
/* { dg-do run } */
/* { dg-options "-O2" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1073741824:sample_seed=3" } */

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) static char *
make (void)
{
  return malloc (100000);
}

__attribute__ ((noinline)) static char *
grow (char *p, size_t n)
{
  return realloc (p, n);
}

int
main (void)
{
  char *p = make ();
  size_t n = 100000;
  memset (p, 'a', n);
  int moved = 0, steps = 0;
  /* 1,400 bytes more: past the 100,008 bytes malloc_usable_size promises
     (glibc's figure), within the runtime's block (its size class holds
     114,656), which realloc keeps as glibc keeps a chunk it can
     extend.  */
  for (; steps < 200; steps++)
    {
      char *q = grow (p, n + 7);
      moved += q != p;
      p = q;
      memcpy (p + n, "bcdefgh", 7);
      n += 7;
    }
  for (size_t i = 0; i < 100000; i++)
    if (p[i] != 'a')
      abort ();
  if (steps == 0 || malloc_usable_size (p) < n)
    abort ();
  printf ("%d steps, moved %d times\n", steps, moved);
  free (p);
  return 0;
}

/* { dg-output "\[0-9\]+ steps, moved 0 times" } */
/* { dg-final { memprof-record fn=make<main alloc_count==1 total_size==100000 } } */
/* { dg-final { memprof-record fn=grow<main alloc_count==1 total_size==100007 } } */
/* { dg-final { memprof-dump-scan {^Unattributed: [0-9,]+ allocations; [0-9,]+ bytes: at sites} } } */
