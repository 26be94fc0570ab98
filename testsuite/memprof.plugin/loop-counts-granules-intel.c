/* loop-counts-granules.c in GCC's Intel assembler dialect: the loop
   exits' asm goto splits a run across two granules the same way.  */
/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-O2 -fno-tree-vectorize -masm=intel -fplugin-arg-memprof-stats" } */

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

/* { dg-final { scan-compiler-output "memprof: sum_ints: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { memprof-record fn=alloc_one_each<main alloc_count==1 total_access_count==2 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_three_one<main alloc_count==1 total_access_count==4 max_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=alloc_within<main alloc_count==1 total_access_count==16 max_percent_utilized==50 } } */
/* { dg-final { memprof-record fn=alloc_many<main alloc_count==1 total_access_count==30 max_percent_utilized==100 } } */
