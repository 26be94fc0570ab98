/* glibc's contract on usable bytes: every byte malloc_usable_size
   promises is the program's, survives realloc (up to the new size), and
   calloc returns all of them zero.  Sizes cover every size class of the
   runtime's allocator (the table of libmemprof/allocator.cpp: 32-byte
   steps up to 1 KiB, then four classes per power of two up to 128 KiB,
   each block holding a 32-byte header), both ends of each class, large
   (mapped) blocks, and memalign/posix_memalign/aligned_alloc blocks;
   reallocs bigger, smaller, within the class, across classes, to large
   and back.  malloc-usable-bytes-glibc.c runs this same program
   uninstrumented, with glibc's malloc as the reference.  The program
   aborts with a message at the first violation.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_SIZE (3u << 20)
static unsigned char ref[REF_SIZE + 4096];
static unsigned long checks;

static void
fail (const char *what, size_t a, size_t b)
{
  fprintf (stderr, "FAILED: %s (%zu, %zu)\n", what, a, b);
  abort ();
}

/* Fill the N bytes at P with a position-dependent pattern chosen by
   SEED; memcpy and memcmp keep the instrumented build quick.  */
static void
fill (void *p, size_t n, unsigned seed)
{
  if (n > REF_SIZE)
    fail ("block larger than the pattern", n, REF_SIZE);
  memcpy (p, ref + seed % 4096, n);
}

static void
expect (const void *p, size_t n, unsigned seed, const char *what, size_t a)
{
  checks++;
  if (memcmp (p, ref + seed % 4096, n) != 0)
    {
      const unsigned char *b = p, *r = ref + seed % 4096;
      size_t i = 0;
      while (b[i] == r[i])
        i++;
      fprintf (stderr, "byte %zu of %zu lost\n", i, n);
      fail (what, a, n);
    }
}

/* Fill every usable byte of P, realloc it to each size of TO in turn,
   and check after each step that the first min (old usable, new size)
   bytes came through; then fill the new block's usable bytes again.  */
static void *
realloc_chain (void *p, const size_t *to, size_t n_to, unsigned seed,
               const char *what)
{
  size_t usable = malloc_usable_size (p);
  fill (p, usable, seed);
  for (size_t i = 0; i < n_to; i++)
    {
      void *q = realloc (p, to[i]);
      if (!q)
        fail ("realloc returned null", usable, to[i]);
      size_t kept = usable < to[i] ? usable : to[i];
      expect (q, kept, seed, what, to[i]);
      p = q;
      usable = malloc_usable_size (p);
      if (usable < to[i])
        fail ("usable size below the request", usable, to[i]);
      seed += 97;
      fill (p, usable, seed);
    }
  return p;
}

/* Block sizes of the runtime's size classes.  */
static size_t
class_block_size (int c)
{
  if (c < 31)
    return (size_t) (c + 2) * 32;
  int k = c - 31;
  size_t p = (size_t) 1 << (10 + k / 4);
  return p + (size_t) (k % 4 + 1) * (p / 4);
}

#define NUM_CLASSES 59

/* The smallest and the largest request of every class.  */
static size_t class_requests[2 * NUM_CLASSES];

static void
init_class_requests (void)
{
  size_t prev = 32;
  for (int c = 0; c < NUM_CLASSES; c++)
    {
      size_t block = class_block_size (c);
      class_requests[2 * c] = prev - 32 + 1;
      class_requests[2 * c + 1] = block - 32;
      prev = block;
    }
}

static void
every_class (void)
{
  for (int i = 0; i < 2 * NUM_CLASSES; i++)
    {
      size_t s = class_requests[i];
      void *p = malloc (s);
      if (!p)
        fail ("malloc", s, 0);
      size_t u = malloc_usable_size (p);
      size_t to[] = {
        u,              /* Same size: stays.  */
        u + 1,          /* Just past the block: next class.  */
        s,              /* Back down.  */
        s / 2 + 1,      /* Smaller.  */
        3 * u + 100,    /* Several classes up.  */
        300000,         /* Large (mapped).  */
        s,              /* Back from large.  */
        1,              /* Smallest class.  */
        s,
      };
      p = realloc_chain (p, to, sizeof to / sizeof *to, (unsigned) s,
                         "realloc chain");
      free (p);
    }
}

static void
large_blocks (void)
{
  size_t sizes[] = { 131073, 200000, 1 << 20, (1 << 20) + 12345 };
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    {
      void *p = malloc (sizes[i]);
      if (!p)
        fail ("malloc large", sizes[i], 0);
      size_t u = malloc_usable_size (p);
      size_t to[] = { u, u + 1, 2 * u, u / 2, 1000, (3u << 20) - 8192, 64 };
      p = realloc_chain (p, to, sizeof to / sizeof *to, (unsigned) i,
                         "large realloc chain");
      free (p);
    }
}

static void
aligned_blocks (void)
{
  size_t aligns[] = { 16, 64, 128, 256, 1024, 4096, 8192, 65536 };
  size_t sizes[] = { 1, 33, 100, 1000, 5000, 70000, 131072, 300000 };
  for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
      {
        size_t align = aligns[a], s = sizes[i];
        for (int how = 0; how < 3; how++)
          {
            void *p = NULL;
            if (how == 0)
              {
                if (posix_memalign (&p, align, s) != 0)
                  p = NULL;
              }
            else if (how == 1)
              p = aligned_alloc (align, (s + align - 1) / align * align);
            else
              p = memalign (align, s);
            if (!p || (uintptr_t) p % align)
              fail ("aligned allocation", align, s);
            size_t u = malloc_usable_size (p);
            size_t to[] = { u, u + 1, s / 2 + 1, 2 * u + 64, 40 };
            p = realloc_chain (p, to, sizeof to / sizeof *to,
                               (unsigned) (align + s + how), "aligned chain");
            free (p);
          }
      }
}

/* calloc's every usable byte is zero, also in a block whose slack a
   previous owner dirtied; reallocarray keeps usable bytes too.  */
static void
calloc_zeroes_usable (void)
{
  for (int i = 0; i < 2 * NUM_CLASSES; i++)
    {
      size_t s = class_requests[i];
      for (int round = 0; round < 3; round++)
        {
          /* Blocks of this size, dirtied to their last usable byte
             and freed, then calloc'd back.  */
          void *dirty[4];
          for (int j = 0; j < 4; j++)
            {
              dirty[j] = malloc (s);
              if (!dirty[j])
                fail ("malloc", s, 0);
              memset (dirty[j], 0xa5, malloc_usable_size (dirty[j]));
            }
          for (int j = 0; j < 4; j++)
            free (dirty[j]);
          for (int j = 0; j < 4; j++)
            {
              unsigned char *z
                = round == 0 ? calloc (1, s)
                  : round == 1 ? calloc (s, 1)
                               : calloc ((s + 7) / 8, 8);
              if (!z)
                fail ("calloc", s, 0);
              size_t u = malloc_usable_size (z);
              checks++;
              for (size_t b = 0; b < u; b++)
                if (z[b])
                  fail ("calloc left a usable byte dirty", s, b);
              dirty[j] = z;
            }
          for (int j = 0; j < 4; j++)
            free (dirty[j]);
        }
    }
  void *p = reallocarray (NULL, 10, 7);
  size_t u = malloc_usable_size (p);
  fill (p, u, 5);
  p = reallocarray (p, 100, 7);
  expect (p, u, 5, "reallocarray", 700);
  free (p);
}

int
main (void)
{
  for (size_t i = 0; i < sizeof ref; i++)
    ref[i] = (unsigned char) (i * 131 + (i >> 8) * 7 + 1);
  init_class_requests ();
  every_class ();
  large_blocks ();
  aligned_blocks ();
  calloc_zeroes_usable ();
  printf ("usable-bytes checks: %lu\n", checks);
  return 0;
}

/* { dg-output "usable-bytes checks: 3467\n" } */
