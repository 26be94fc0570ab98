/* Atomic builtins, and at -O2 the internal functions GCC turns some of
   them into (.ATOMIC_COMPARE_EXCHANGE, .ATOMIC_BIT_TEST_AND_SET): each
   executed atomic counts once.  Included by atomics-O0.c, atomics-O2.c.  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

NOINLINE void *
alloc_atomics (void)
{
  void *p = aligned_alloc (64, 8 * sizeof (long));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

/* 7 atomics; the store to p[6] does not execute.  */
NOINLINE long
atomics (long *p)
{
  __atomic_fetch_add (p, 1, __ATOMIC_SEQ_CST);
  __atomic_store_n (p + 1, 5, __ATOMIC_RELEASE);
  long v = __atomic_load_n (p + 2, __ATOMIC_ACQUIRE);
  long expected = 0;
  __atomic_compare_exchange_n (p + 3, &expected, v + 1, 0, __ATOMIC_SEQ_CST,
			       __ATOMIC_SEQ_CST);
  __sync_fetch_and_or (p + 4, 2);
  if (__atomic_fetch_or (p + 5, 4, __ATOMIC_SEQ_CST) & 4)
    p[6] = 1;
  return __atomic_exchange_n (p + 7, 3, __ATOMIC_SEQ_CST);
}

int
main (void)
{
  long *p = alloc_atomics ();
  __builtin_memset (p, 0, 8 * sizeof (long));	/* 1: one granule */
  long r = atomics (p);
  free (p);
  return (int) r;
}
