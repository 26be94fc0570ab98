/* realloc keeps a block the new size fits (as glibc does) and still
   records a new allocation under the realloc caller's stack: the old
   life is folded into its own context with the accesses made before the
   realloc, the new one starts with fresh counters.  Small, shrunk and
   large (mapped) blocks; the large one's slack is written before the
   realloc and must not be counted to the new allocation.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__ ((noinline)) static char *
make_small (void)
{
  return malloc (5);
}

__attribute__ ((noinline)) static char *
grow_small (char *p)
{
  return realloc (p, 30);
}

__attribute__ ((noinline)) static char *
make_big (void)
{
  return malloc (1000);
}

__attribute__ ((noinline)) static char *
shrink_big (char *p)
{
  return realloc (p, 700);
}

__attribute__ ((noinline)) static char *
make_huge (void)
{
  return malloc (300000);
}

__attribute__ ((noinline)) static char *
grow_huge (char *p, size_t n)
{
  return realloc (p, n);
}

__attribute__ ((noinline)) static char *
make_giant (void)
{
  return malloc (600000);
}

__attribute__ ((noinline)) static char *
grow_giant (char *p, size_t n)
{
  return realloc (p, n);
}

static void
same (const char *p, const char *q, const char *what)
{
  if (p != q)
    {
      fprintf (stderr, "FAILED: %s moved the block\n", what);
      abort ();
    }
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    {
      char *p = make_small ();
      p[0] = 1;
      p[1] = 2;
      p[2] = 3;
      char *q = grow_small (p);
      same (p, q, "grow_small");
      q[0] = 4;
      q[29] = 5;
      free (q);
    }
  for (int i = 0; i < 10; i++)
    {
      char *p = make_big ();
      p[0] = 1;
      p[999] = 2;
      char *q = shrink_big (p);
      same (p, q, "shrink_big");
      q[0] = 3;
      q[699] = 4;
      q[640] = 5;
      free (q);
    }
  for (int i = 0; i < 10; i++)
    {
      char *p = make_huge ();
      size_t usable = malloc_usable_size (p);
      p[0] = 1;
      p[usable - 1] = 2;   /* Slack: no one's access.  */
      char *q = grow_huge (p, usable);
      same (p, q, "grow_huge");
      q[1] = 3;
      free (q);
    }
  /* A block of 512 KiB and more (its shadow is given back with madvise
     when many granules were touched) grown in place a few bytes at a
     time, its new tail written each time, as a string appended to: each
     life counts its own accesses, the slack written beyond it none.  */
  {
    char *p = make_giant ();
    size_t usable = malloc_usable_size (p), n = 600000;
    for (size_t i = 0; i < n; i += 64)
      p[i] = 1;
    p[usable - 1] = 2;   /* Slack: no one's access.  */
    for (int i = 0; i < 20; i++)
      {
        char *q = grow_giant (p, n + 7);
        same (p, q, "grow_giant");
        q[n] = 3;
        q[n + 6] = 4;
        n += 7;
      }
    free (p);
  }
  return 0;
}

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=make_small<main alloc_count==10 total_size==50 total_access_count==30 max_access_count==3 } } */
/* { dg-final { memprof-record fn=grow_small<main alloc_count==10 total_size==300 total_access_count==20 max_access_count==2 } } */
/* { dg-final { memprof-record fn=make_big<main alloc_count==10 total_size==10000 total_access_count==20 max_access_count==2 } } */
/* { dg-final { memprof-record fn=shrink_big<main alloc_count==10 total_size==7000 total_access_count==30 max_access_count==3 } } */
/* make_huge's slack byte (malloc_usable_size as glibc's: 8 bytes past
   the request) shares the block's last 64-byte granule, so it counts to
   make_huge's block; never to grow_huge's.  */
/* { dg-final { memprof-record fn=make_huge<main alloc_count==10 total_size==3000000 total_access_count==20 max_access_count==2 } } */
/* { dg-final { memprof-record fn=grow_huge<main alloc_count==10 total_access_count==10 max_access_count==1 } } */
/* { dg-final { memprof-record fn=make_giant<main alloc_count==1 total_size==600000 total_access_count==9375 } } */
/* { dg-final { memprof-record fn=grow_giant<main alloc_count==20 total_access_count==40 min_access_count==2 max_access_count==2 } } */
