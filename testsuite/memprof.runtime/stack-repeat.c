/* The unwinder's per-thread caches must give every allocation its exact
   stack: here one site is reached through call chains that share their
   first frames (same return addresses, same frame addresses) and differ
   only further out, through alloca'd frames of varying size (same
   return addresses, other frame addresses), and alternately, so a
   cached walk is wrong the moment it is reused without checking.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include <alloca.h>
#include <stdlib.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

__attribute__ ((noinline)) static char *
site (size_t n)
{
  return malloc (n);
}

__attribute__ ((noinline)) static char *
via_a (size_t n)
{
  char *p = site (n);
  keep (p);
  return p;
}

__attribute__ ((noinline)) static char *
via_b (size_t n)
{
  char *p = site (n);
  keep (p);
  return p;
}

/* outer_x and outer_y have identical frames: site's frame address and
   its first two return addresses are the same under both.  */
__attribute__ ((noinline)) static void
outer_x (void)
{
  free (via_a (24));
}

__attribute__ ((noinline)) static void
outer_y (void)
{
  free (via_a (40));
}

/* Same return addresses every time, frames moved by the alloca.  */
__attribute__ ((noinline)) static void
outer_pad (size_t pad)
{
  char *buf = alloca (pad);
  keep (buf);
  free (via_a (56));
}

int
main (void)
{
  for (int i = 0; i < 1200; i++)
    switch (i % 4)
      {
      case 0: outer_x (); break;
      case 1: outer_y (); break;
      case 2: free (via_b (8)); break;
      default: outer_pad (i % 8 == 3 ? 16 : 4096); break;
      }
  return 0;
}

/* { dg-final { memprof-record fn=site<via_a<outer_x alloc_count==300 total_size==7200 } } */
/* { dg-final { memprof-record fn=site<via_a<outer_y alloc_count==300 total_size==12000 } } */
/* { dg-final { memprof-record fn=site<via_b<main alloc_count==300 total_size==2400 } } */
/* { dg-final { memprof-record fn=site<via_a<outer_pad alloc_count==300 total_size==16800 } } */
