/* A loop that calls now and then, the call dumping the profile: the
   dump sees every access made before the call and none after it (a
   block a dump reported keeps the counts it had then).  READ_THEN_CALL
   reads before its call, CALL_THEN_WRITE writes after it; each dumps
   in its iteration 120 of 200.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-tree-vectorize -I%TOP_SRCDIR%/include -fplugin-arg-memprof-stats" } */

#include <stdlib.h>
#include <memprof/memprof_interface.h>

#define NOINLINE __attribute__ ((noinline, noclone))

#define ALLOCATOR(name, size)			\
  NOINLINE void *name (void)			\
  {						\
    void *p = calloc (size, 1);			\
    __asm__ volatile ("" : : "r" (p) : "memory");	\
    return p;					\
  }
ALLOCATOR (alloc_read, 200 * sizeof (int))
ALLOCATOR (alloc_written, 200 * sizeof (int))

NOINLINE void
dump_at (long i, long when)
{
  if (i == when && __memprof_profile_dump () != 0)
    abort ();
}

NOINLINE long
read_then_call (const int *a, long n)
{
  long s = 0;
  for (const int *p = a; p != a + n; p++)
    {
      int v = *p;
      s += v;
      if (__builtin_expect (v == 7, 0))
	dump_at (p - a, 120);
    }
  return s;
}

NOINLINE void
call_then_write (int *out, long n)
{
  for (long i = 0; i < n; i++)
    {
      if (__builtin_expect ((i & 7) == 0, 0))
	dump_at (i, 120);
      out[i] = (int) i;
    }
}

int
main (void)
{
  int *read = alloc_read ();
  read[120] = 7;
  long s = read_then_call (read, 200);	/* 1 write + 121 reads dumped */
  int *written = alloc_written ();
  call_then_write (written, 200);	/* 120 writes dumped */
  int ok = s == 7 && written[199] == 199;
  free (read);
  free (written);
  return ok ? 0 : 1;
}

/* { dg-final { scan-compiler-output "memprof: read_then_call: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { scan-compiler-output "memprof: call_then_write: 1 instrumented, 0 skipped \[^\n\]*, 1 at loop exits" } } */
/* { dg-final { memprof-profile-count 3 } } */
/* { dg-final { memprof-record fn=alloc_read<main alloc_count==1 total_access_count==122 } } */
/* { dg-final { memprof-record fn=alloc_written<main alloc_count==1 total_access_count==120 } } */
