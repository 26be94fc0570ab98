/* Programs whose profiles are known, shared by known-O0.c and
   known-O2.c.  Every allocation site is a function of its own, so each
   gets its own record (fn=SITE<main), and nothing the checks rely on can
   be optimised away: pointers escape through keep(), sums go to a
   volatile.  */

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The compiler must assume the block is read and written here.  */
#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

volatile long sink;
char *volatile untouched_block;

/* 10 blocks of 4000 bytes, each written once and read once as ints.  */
__attribute__ ((noinline)) int *
site_ints (void)
{
  int *p = malloc (4000);
  keep (p);
  return p;
}

/* 512 KiB, never touched, still live at exit.  */
__attribute__ ((noinline)) char *
site_untouched (void)
{
  char *p = malloc (512 * 1024);
  keep (p);
  return p;
}

/* 64 KiB of which only the first 64 bytes are used.  */
__attribute__ ((noinline)) char *
site_sparse (void)
{
  char *p = malloc (64 * 1024);
  keep (p);
  return p;
}

/* Held for 200 ms.  */
__attribute__ ((noinline)) char *
site_held (void)
{
  char *p = malloc (100);
  keep (p);
  return p;
}

/* calloc's zeroing is not an access.  */
__attribute__ ((noinline)) char *
site_calloc (void)
{
  char *p = calloc (1000, 4);
  keep (p);
  return p;
}

/* A memset over the whole block is one access per granule.  */
__attribute__ ((noinline)) char *
site_memset (void)
{
  char *p = malloc (4000);
  keep (p);
  return p;
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    {
      int *p = site_ints ();
      for (int j = 0; j < 1000; j++)
        p[j] = j;
      keep (p);
      long s = 0;
      for (int j = 0; j < 1000; j++)
        s += p[j];
      sink = s;
      free (p);
    }

  untouched_block = site_untouched ();

  char *sparse = site_sparse ();
  memset (sparse, 1, 64);
  keep (sparse);
  free (sparse);

  char *held = site_held ();
  struct timespec ts = { 0, 200 * 1000 * 1000 };
  while (nanosleep (&ts, &ts) != 0)
    ;
  free (held);

  char *zeroed = site_calloc ();
  free (zeroed);

  char *set = site_memset ();
  memset (set, 7, 4000);
  keep (set);
  free (set);
  return 0;
}
