/* Allocations made before the runtime's own initialisation (by the
   loader and libc start-up, before .preinit_array) and in constructors
   are served and profiled like any other; the stdio buffer made during
   start-up of this program's first printf is ordinary.  Here a
   constructor of the highest priority allocates, and the block is both
   usable and profiled, with its stack.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

char *early;

__attribute__ ((noinline)) static char *
early_site (void)
{
  char *p = malloc (300);
  keep (p);
  return p;
}

__attribute__ ((constructor (101))) static void
early_constructor (void)
{
  early = early_site ();
  memset (early, 'e', 300);
}

int
main (void)
{
  for (int i = 0; i < 300; i++)
    if (early[i] != 'e')
      return 1;
  free (early);
  return 0;
}

/* { dg-final { memprof-record fn=early_site<early_constructor alloc_count==1 total_size==300 min_percent_utilized==100 } } */
