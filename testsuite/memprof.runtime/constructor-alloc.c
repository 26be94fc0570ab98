/* An allocation in the executable's highest-priority constructor is
   served and profiled with its stack.  The runtime is already initialised
   here (from .preinit_array); an allocation made before its
   initialisation is tested by alloc-before-init.exp.  */
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
