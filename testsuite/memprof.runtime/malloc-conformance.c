/* Malloc conformance: alignment of every entry point for every power of
   two up to 4096, realloc growth/shrink/NULL/0, calloc and reallocarray
   overflow, malloc_usable_size, and 8 threads churning with blocks freed
   by other threads.  The program aborts with a message at the first
   violation.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread" } */

#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Opaque to the compiler, so it neither warns about nor folds the
   overflowing requests.  */
static volatile size_t huge = SIZE_MAX / 2;
static volatile size_t two_to_33 = (size_t) 1 << 33;

static void
check (int ok, const char *what, size_t a, size_t b)
{
  if (!ok)
    {
      fprintf (stderr, "FAILED: %s (%zu, %zu)\n", what, a, b);
      abort ();
    }
}

static void
check_block (void *p, size_t align, size_t size, const char *what)
{
  check (p != NULL, what, align, size);
  check ((uintptr_t) p % align == 0, what, align, size);
  check (malloc_usable_size (p) >= size, what, align, size);
  memset (p, 0xa5, size);   /* The whole block is ours to write.  */
}

static void
alignment (void)
{
  size_t sizes[] = { 0, 1, 7, 31, 32, 33, 100, 4096, 5000, 200000 };
  for (size_t align = 1; align <= 4096; align *= 2)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
      {
        size_t size = sizes[i];
        void *p = memalign (align, size);
        check_block (p, align, size, "memalign");
        free (p);
        p = aligned_alloc (align, size);
        check_block (p, align, size, "aligned_alloc");
        free (p);
        if (align >= sizeof (void *))
          {
            p = NULL;
            check (posix_memalign (&p, align, size) == 0, "posix_memalign",
                   align, size);
            check_block (p, align, size, "posix_memalign");
            free (p);
          }
      }
  check (posix_memalign (&(void *){ 0 }, 24, 8) == EINVAL,
         "posix_memalign rejects 24", 24, 8);
  check (posix_memalign (&(void *){ 0 }, 4, 8) == EINVAL,
         "posix_memalign rejects 4", 4, 8);
  long page = sysconf (_SC_PAGESIZE);
  void *p = valloc (10);
  check_block (p, page, 10, "valloc");
  free (p);
  p = pvalloc (10);
  check_block (p, page, page, "pvalloc rounds to a page");
  free (p);
  /* Default alignment: 16 (max_align_t) at least; ours is 32.  */
  for (size_t size = 0; size < 300; size++)
    {
      p = malloc (size);
      check_block (p, 16, size, "malloc");
      free (p);
      p = calloc (size, 3);
      check_block (p, 16, size * 3, "calloc");
      free (p);
    }
}

static void
reallocation (void)
{
  /* NULL behaves as malloc.  */
  char *p = realloc (NULL, 10);
  check (p != NULL, "realloc (NULL, 10)", 0, 10);
  for (int i = 0; i < 10; i++)
    p[i] = (char) i;
  /* Growth keeps the contents.  */
  p = realloc (p, 100000);
  check (p != NULL, "realloc grow", 10, 100000);
  for (int i = 0; i < 10; i++)
    check (p[i] == (char) i, "realloc grow keeps bytes", i, 0);
  memset (p + 10, 1, 100000 - 10);
  /* Shrink keeps the prefix.  */
  p = realloc (p, 5);
  check (p != NULL, "realloc shrink", 100000, 5);
  for (int i = 0; i < 5; i++)
    check (p[i] == (char) i, "realloc shrink keeps bytes", i, 0);
  check (malloc_usable_size (p) >= 5, "usable after shrink", 5, 0);
  /* Size 0 frees, as glibc does, and returns NULL.  */
  check (realloc (p, 0) == NULL, "realloc (p, 0)", 0, 0);
  /* realloc (NULL, 0) is malloc (0): a unique pointer.  */
  void *z = realloc (NULL, 0);
  check (z != NULL, "realloc (NULL, 0)", 0, 0);
  free (z);
  /* Failure leaves the old block alone.  */
  p = malloc (16);
  strcpy (p, "still here");
  errno = 0;
  check (realloc (p, huge) == NULL && errno == ENOMEM,
         "huge realloc fails with ENOMEM", 0, 0);
  check (strcmp (p, "still here") == 0, "failed realloc keeps block", 0, 0);
  free (p);
  /* reallocarray overflow.  */
  errno = 0;
  check (reallocarray (NULL, huge, 3) == NULL && errno == ENOMEM,
         "reallocarray overflow", 0, 0);
  p = reallocarray (NULL, 10, 10);
  check_block (p, 16, 100, "reallocarray");
  free (p);
}

static void
overflow_and_zero (void)
{
  errno = 0;
  check (calloc (huge, 3) == NULL && errno == ENOMEM,
         "calloc overflow gives NULL and ENOMEM", 0, 0);
  errno = 0;
  check (calloc (two_to_33, two_to_33) == NULL
             && errno == ENOMEM,
         "calloc 2^66 overflow", 0, 0);
  errno = 0;
  check (malloc (huge * 2 + 1) == NULL && errno == ENOMEM, "malloc (SIZE_MAX)",
         0, 0);
  /* calloc zeroes, even a block that was dirty when freed.  */
  for (int round = 0; round < 3; round++)
    {
      unsigned char *d = malloc (5000);
      memset (d, 0xff, 5000);
      free (d);
      unsigned char *c = calloc (1, 5000);
      for (int i = 0; i < 5000; i++)
        check (c[i] == 0, "calloc zeroes", i, 0);
      free (c);
    }
  check (malloc_usable_size (NULL) == 0, "usable size of NULL", 0, 0);
  free (NULL);
}

/* 8 threads; each frees the blocks the previous thread left in a shared
   ring, so most frees happen in a thread other than the allocating one.  */
#define THREADS 8
#define ROUNDS 20000
#define RING 64
static void *ring[THREADS][RING];
static pthread_mutex_t ring_lock[THREADS];

static void *
churn (void *arg)
{
  long t = (long) arg;
  unsigned seed = (unsigned) t * 7919u + 1;
  for (int r = 0; r < ROUNDS; r++)
    {
      seed = seed * 1103515245u + 12345u;
      size_t size = (seed >> 8) % 3000;
      if ((seed >> 4) % 64 == 0)
        size += 200000;   /* Now and then a secondary block.  */
      unsigned char *p = malloc (size);
      check (p != NULL, "churn malloc", size, 0);
      memset (p, (int) t, size);
      long victim = (t + 1) % THREADS;
      pthread_mutex_lock (&ring_lock[victim]);
      unsigned char *old = ring[victim][r % RING];
      ring[victim][r % RING] = p;
      pthread_mutex_unlock (&ring_lock[victim]);
      free (old);
    }
  return 0;
}

static void
threads (void)
{
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++)
    pthread_mutex_init (&ring_lock[t], 0);
  for (long t = 0; t < THREADS; t++)
    check (pthread_create (&th[t], 0, churn, (void *) t) == 0,
           "pthread_create", t, 0);
  for (int t = 0; t < THREADS; t++)
    pthread_join (th[t], 0);
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < RING; i++)
      free (ring[t][i]);
}

int
main (void)
{
  alignment ();
  reallocation ();
  overflow_and_zero ();
  threads ();
  puts ("malloc conformance: ok");
  return 0;
}

/* { dg-output "malloc conformance: ok" } */
/* { dg-final { memprof-profile-count 1 } } */
/* Every allocation of the churn is accounted for.  */
/* { dg-final { memprof-record fn=churn alloc_count==160000 } } */
