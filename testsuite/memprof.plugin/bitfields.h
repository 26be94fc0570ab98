/* Bit-field loads and stores through a pointer: each counts once, in the
   granule of the byte holding the field's first bit.  Included by
   bitfields-O0.c and bitfields-O2.c.  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

struct flags
{
  long pad[8];			/* The fields live in the second granule.  */
  unsigned low : 3;
  unsigned mid : 7;
  unsigned high : 22;
};

NOINLINE void *
alloc_flags (void)
{
  void *p = malloc (sizeof (struct flags));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

/* 3 stores, 2 loads.  */
NOINLINE unsigned
use_flags (VOLATILE struct flags *f)
{
  f->low = 5;
  f->mid = f->low + 1;
  f->high = 99;
  return f->mid;
}

int
main (void)
{
  struct flags *f = alloc_flags ();
  unsigned mid = use_flags (f);
  free (f);
  return mid != 6;
}
