/* The sampling mode's heap (sampling_heap.h): an unsampled block is the
   C library's, a sampled one the runtime's.  At sample_interval=65536 a
   block of at most a few hundred bytes is almost never sampled (p below
   0.5%), one of 16 MiB always (p = 1 - e^-256): the small ones must be
   glibc's (glibc's chunk header before them), the big ones ours (in the profile,
   weight 1, so their counts are exact).  Every entry point, realloc
   between the kinds both ways, calloc's zeroing, the memalign family,
   frees in another thread and in a forked child.  Aborts with a message
   at the first violation.  */
/* { dg-do run } */
/* { dg-options "-O0 -pthread" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=65536:sample_seed=3" } */

#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG ((size_t) 16 << 20)
#define SMALL_BLOCKS 2000

static volatile size_t huge = SIZE_MAX / 2;

static void
check (int ok, const char *what, size_t a)
{
  if (!ok)
    {
      fprintf (stderr, "FAILED: %s (%zu)\n", what, a);
      abort ();
    }
}

/* glibc's usable size of an N-byte request from its heap.  */
static size_t
glibc_usable (size_t n)
{
  size_t chunk = (n + 8 + 15) & ~(size_t) 15;
  return chunk < 32 ? 24 : chunk - 8;
}

/* Whether P is glibc's block of an N-byte request from its heap: the
   word before it, glibc's chunk header, holds the chunk's size (usable
   bytes + 8) and flag bits, IS_MMAPPED (2) clear.  The runtime reports
   glibc's usable sizes too, but has its own header there (the block's
   type id: 0 here).  Read by asm, which the plugin does not count.  */
static int
is_glibcs (void *p, size_t n)
{
  size_t head;
  __asm__ ("movq -8(%1), %0" : "=r" (head) : "r" (p));
  return (head & ~(size_t) 7) == glibc_usable (n) + 8 && !(head & 2);
}

static void
fill (void *p, int c, size_t n)
{
  memset (p, c, n);
}

static int
all_are (const void *p, int c, size_t n)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i] != (unsigned char) c)
      return 0;
  return 1;
}

__attribute__ ((noinline)) static void *
make_big (void)
{
  return malloc (BIG);
}

__attribute__ ((noinline)) static void *
grow_big (void *p)
{
  return realloc (p, BIG);
}

__attribute__ ((noinline)) static void *
grow_bigger (void *p)
{
  return realloc (p, 2 * BIG);
}

__attribute__ ((noinline)) static void *
zero_big (void)
{
  return calloc (BIG / 16, 16);
}

static void
small_blocks (void)
{
  static void *v[SMALL_BLOCKS];
  unsigned libc = 0;
  for (int i = 0; i < SMALL_BLOCKS; i++)
    {
      size_t n = 1 + i % 300;
      v[i] = malloc (n);
      check (v[i] && ((uintptr_t) v[i] & 15) == 0, "malloc aligned", n);
      libc += is_glibcs (v[i], n);
      fill (v[i], 0xab, malloc_usable_size (v[i]));
    }
  check (libc >= SMALL_BLOCKS - 20, "small blocks are glibc's", libc);
  for (int i = SMALL_BLOCKS; i-- > 0;)
    free (v[i]);
  /* strdup and strndup are the runtime's (counted as ranges): their
     copies are glibc's too.  */
  libc = 0;
  for (int i = 0; i < 200; i++)
    {
      char *d = strdup ("sampling heap");
      char *e = strndup ("sampling heap", 8);
      check (d && strcmp (d, "sampling heap") == 0, "strdup", i);
      check (e && strcmp (e, "sampling") == 0, "strndup", i);
      libc += is_glibcs (d, 14) + is_glibcs (e, 9);
      free (d);
      free (e);
    }
  check (libc >= 396, "strdup's copies are glibc's", libc);
  void *z = malloc (0);
  check (z != NULL, "malloc (0)", 0);
  free (z);
  free (NULL);
  check (malloc_usable_size (NULL) == 0, "malloc_usable_size (NULL)", 0);
}

static void
reallocs (void)
{
  /* glibc's block, grown a little: still glibc's, contents kept.  */
  unsigned libc = 0;
  for (int i = 0; i < 200; i++)
    {
      char *p = malloc (16);
      fill (p, 'a', 16);
      p = realloc (p, 100);
      check (p && all_are (p, 'a', 16), "realloc 16 -> 100 keeps bytes", i);
      libc += is_glibcs (p, 100);
      p = realloc (p, 40);
      check (p && all_are (p, 'a', 16), "realloc 100 -> 40 keeps bytes", i);
      free (p);
    }
  check (libc >= 190, "a glibc block grown a little stays glibc's", libc);

  /* glibc's block grown to 16 MiB: sampled, so ours (grow_big's record),
     every byte of its usable size kept.  */
  for (int i = 0; i < 3; i++)
    {
      char *p = malloc (20);
      size_t u = malloc_usable_size (p);
      /* (The first block of a site in a thread is the runtime's, with
         weight 1: site_tally.h.)  */
      check (u == 24 || i == 0, "a 20-byte block is glibc's", u);
      fill (p, 'b', u);
      p = grow_big (p);
      check (p && all_are (p, 'b', u), "realloc glibc -> 16 MiB keeps bytes", i);
      check (!is_glibcs (p, BIG), "a 16 MiB block is ours", i);
      fill (p, 'c', BIG);
      /* Ours grown: sampled again, ours (grow_bigger's record).  */
      p = grow_bigger (p);
      check (p && all_are (p, 'c', BIG), "realloc 16 -> 32 MiB keeps bytes", i);
      /* Ours shrunk to 16 bytes: not sampled, so glibc's.  */
      p = realloc (p, 16);
      check (p && all_are (p, 'c', 16), "realloc 32 MiB -> 16 keeps bytes", i);
      check (is_glibcs (p, 16) || i == 0,
             "a block shrunk to 16 bytes is glibc's", i);
      free (p);
    }

  /* realloc (NULL, N), realloc (P, 0), reallocarray's overflow.  */
  /* (Twice: a site's first block in a thread is the runtime's.)  */
  char *p = NULL;
  for (int k = 0; k < 2; k++)
    {
      free (p);
      p = realloc (NULL, 50);
    }
  check (p != NULL && is_glibcs (p, 50), "realloc (NULL, 50)", 0);
  check (realloc (p, 0) == NULL, "realloc (p, 0) frees", 0);
  p = malloc (32);
  fill (p, 'd', 32);
  errno = 0;
  check (reallocarray (p, huge, 4) == NULL && errno == ENOMEM,
         "reallocarray overflow", 0);
  check (all_are (p, 'd', 32), "reallocarray overflow keeps the block", 0);
  p = reallocarray (p, 16, 4);
  check (p && all_are (p, 'd', 32), "reallocarray 16 x 4", 0);
  free (p);
}

static void
callocs (void)
{
  /* Dirty glibc's free chunks first, so a calloc that did not clear
     would show it.  */
  void *v[64];
  for (int i = 0; i < 64; i++)
    {
      v[i] = malloc (200);
      fill (v[i], 0xee, malloc_usable_size (v[i]));
    }
  for (int i = 0; i < 64; i++)
    free (v[i]);
  for (int i = 0; i < 64; i++)
    {
      v[i] = calloc (25, 8);
      check (v[i] && all_are (v[i], 0, malloc_usable_size (v[i])),
             "calloc zeroes every usable byte", i);
    }
  for (int i = 0; i < 64; i++)
    free (v[i]);
  for (int i = 0; i < 2; i++)
    {
      char *b = zero_big ();
      check (b && !is_glibcs (b, BIG), "a 16 MiB calloc is ours", i);
      check (all_are (b, 0, malloc_usable_size (b)), "16 MiB calloc zero", i);
      fill (b, 1, BIG);
      free (b);
    }
  errno = 0;
  check (calloc (huge, 4) == NULL && errno == ENOMEM, "calloc overflow", 0);
}

static void
aligned (void)
{
  for (size_t a = 8; a <= 65536; a *= 2)
    for (int big = 0; big < 2; big++)
      {
        size_t n = big ? BIG : 100;
        void *p = memalign (a, n);
        check (p && (uintptr_t) p % a == 0 && malloc_usable_size (p) >= n,
               "memalign", a);
        fill (p, 1, n);
        free (p);
        p = aligned_alloc (a, n);
        check (p && (uintptr_t) p % a == 0 && malloc_usable_size (p) >= n,
               "aligned_alloc", a);
        fill (p, 2, n);
        free (p);
        void *q = NULL;
        check (posix_memalign (&q, a, n) == 0 && (uintptr_t) q % a == 0,
               "posix_memalign", a);
        fill (q, 3, n);
        free (q);
      }
  void *q = (void *) 1;
  check (posix_memalign (&q, 24, 10) == EINVAL && q == (void *) 1,
         "posix_memalign (24)", 0);
  long page = sysconf (_SC_PAGESIZE);
  void *p = valloc (100);
  check (p && (uintptr_t) p % page == 0, "valloc", 0);
  free (p);
  p = pvalloc (100);
  check (p && (uintptr_t) p % page == 0
         && malloc_usable_size (p) >= (size_t) page, "pvalloc", 0);
  fill (p, 4, page);
  free (p);
}

/* Blocks of both kinds freed by another thread.  */
static void *
free_all (void *arg)
{
  void **v = arg;
  for (int i = 0; i < 100; i++)
    free (v[i]);
  return NULL;
}

static void
threads (void)
{
  static void *v[4][100];
  pthread_t t[4];
  for (int k = 0; k < 4; k++)
    {
      for (int i = 0; i < 100; i++)
        {
          v[k][i] = malloc (i == 50 ? BIG : (size_t) 8 + i);
          fill (v[k][i], k, 8);
        }
      check (pthread_create (&t[k], NULL, free_all, v[k]) == 0,
             "pthread_create", k);
    }
  for (int k = 0; k < 4; k++)
    pthread_join (t[k], NULL);
}

/* A forked child frees its parent's blocks of both kinds and makes its
   own.  */
static void
forked (void)
{
  void *small = malloc (64), *big = make_big ();
  fill (small, 5, 64);
  fill (big, 6, BIG);
  pid_t pid = fork ();
  check (pid >= 0, "fork", 0);
  if (pid == 0)
    {
      if (!all_are (small, 5, 64) || !all_are (big, 6, BIG))
        _exit (2);
      free (small);
      free (big);
      void *p = NULL;
      for (int k = 0; k < 2; k++)
        {
          free (p);
          p = malloc (77);   /* The second: not the site's first.  */
        }
      void *q = malloc (BIG);
      if (!p || !q || !is_glibcs (p, 77))
        _exit (3);
      free (p);
      free (q);
      _exit (0);
    }
  int st;
  check (waitpid (pid, &st, 0) == pid && WIFEXITED (st)
         && WEXITSTATUS (st) == 0, "forked child", (size_t) st);
  free (small);
  free (big);
}

int
main (void)
{
  small_blocks ();
  for (int i = 0; i < 4; i++)
    free (make_big ());
  reallocs ();
  callocs ();
  aligned ();
  threads ();
  forked ();
  return 0;
}

/* Blocks of 16 MiB are sampled with weight 1: their counts are exact.
   make_big: 4 in main, 1 in forked (the child's profile is its own).  */
/* { dg-final { memprof-record fn=make_big<main alloc_count==4 total_size==67108864 } } */
/* { dg-final { memprof-record fn=make_big<forked alloc_count==1 total_size==16777216 } } */
/* { dg-final { memprof-record fn=grow_big alloc_count==3 total_size==50331648 } } */
/* { dg-final { memprof-record fn=grow_bigger alloc_count==3 total_size==100663296 } } */
/* { dg-final { memprof-record fn=zero_big alloc_count==2 total_size==33554432 } } */
