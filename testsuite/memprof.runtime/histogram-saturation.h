/* Histogram mode's 4-byte counters saturate at 2^32 - 1 instead of
   wrapping: the test sets a slot's counter just below the maximum
   through the runtime's shadow base (4 billion accesses would take too
   long), then counts past it.  Slot 0 by instrumented writes, slot 1 by
   memset (the runtime's range rule).  Included by
   histogram-saturation-O2.c and histogram-saturation-gimple-O2.c.  */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern uintptr_t __memprof_histogram_shadow_base;

static uint32_t *
counter_of (void *p)
{
  return (uint32_t *) ((((uintptr_t) p & ~(uintptr_t) 7) >> 1)
		       + __memprof_histogram_shadow_base);
}

__attribute__ ((noinline, noclone)) long *
make_block (void)
{
  long *p = malloc (2 * sizeof (long));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

volatile size_t eight = 8;

int
main (void)
{
  long *p = make_block ();
  volatile long *v = p;
  *counter_of (p) = 0xfffffffeu;
  *counter_of (p + 1) = 0xfffffffdu;
  for (int i = 0; i < 5; i++)
    v[0] = i;			/* 0xfffffffe + 5: saturates */
  memset (p + 1, 0, eight);	/* 0xfffffffd + 1 */
  memset (p + 1, 0, eight);	/* + 1: the maximum */
  memset (p + 1, 0, eight);	/* stays */
  /* Keep the memsets: the block is freed next.  */
  __asm__ volatile ("" : : "r" (p) : "memory");
  free (p);
  return 0;
}
