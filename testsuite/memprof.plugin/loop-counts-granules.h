/* The program of loop-counts-granules.c and -intel.c: four 128-byte,
   64-byte aligned blocks read by one loop counted at its exit, whose
   runs lie in one granule, across two, or across both and longer than
   a granule holds.  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

#define ALLOCATOR(name)						\
  NOINLINE int *name (void)					\
  {								\
    void *p = aligned_alloc (64, 128);				\
    __asm__ volatile ("" : : "r" (p) : "memory");		\
    return (int *) p;						\
  }
ALLOCATOR (alloc_one_each)
ALLOCATOR (alloc_three_one)
ALLOCATOR (alloc_within)
ALLOCATOR (alloc_many)

/* N reads of 4-byte ints, counted at the exit.  */
NOINLINE long
sum_ints (const int *a, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

int
main (void)
{
  int *one_each = alloc_one_each (), *three_one = alloc_three_one ();
  int *within = alloc_within (), *many = alloc_many ();
  long s = sum_ints (one_each + 15, 2);	/* bytes 60 | 64 */
  s += sum_ints (three_one + 13, 4);	/* bytes 52, 56, 60 | 64 */
  s += sum_ints (within + 16, 16);	/* bytes 64..124 */
  s += sum_ints (many + 2, 30);		/* bytes 8..60 | 64..124 */
  __asm__ volatile ("" : : "r" (s));
  free (one_each);
  free (three_one);
  free (within);
  free (many);
  return 0;
}
