// A loop whose rare call may throw: its counts are made before the call,
// so an exception leaving the loop through the call loses none, and the
// exit after a normal end counts the rest.  sum_checked reads 151 of the
// thrown block's ints (the throw comes in iteration 150) and all 200 of
// the other's.
// { dg-do run }
// { dg-options "-O2 -fno-tree-vectorize -fplugin-arg-memprof-stats" }

#include <cstdlib>
#include <stdexcept>

#define NOINLINE __attribute__ ((noinline, noclone))

extern "C" NOINLINE void *
alloc_thrown ()
{
  void *p = calloc (200, sizeof (int));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

extern "C" NOINLINE void *
alloc_finished ()
{
  void *p = calloc (200, sizeof (int));
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

NOINLINE void
check (long i)
{
  if (i == 150)
    throw std::runtime_error ("150");
}

NOINLINE long
sum_checked (const int *a, long n)
{
  long s = 0;
  for (const int *p = a; p != a + n; p++)
    {
      int v = *p;
      s += v;
      if (__builtin_expect (v == 7, 0))
	check (p - a);
    }
  return s;
}

int
main ()
{
  int *thrown = static_cast<int *> (alloc_thrown ());
  thrown[50] = 7;
  thrown[150] = 7;
  bool caught = false;
  try
    {
      sum_checked (thrown, 200);	// 151 reads, then the throw
    }
  catch (const std::runtime_error &)
    {
      caught = true;
    }
  int *finished = static_cast<int *> (alloc_finished ());
  finished[10] = 7;
  long s = sum_checked (finished, 200);	// 200 reads
  std::free (thrown);
  std::free (finished);
  return caught && s == 7 ? 0 : 1;
}

// { dg-final { scan-compiler-output "memprof: sum_checked: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } }
// { dg-final { memprof-record fn=alloc_thrown<main alloc_count==1 total_access_count==153 } }
// { dg-final { memprof-record fn=alloc_finished<main alloc_count==1 total_access_count==201 } }
