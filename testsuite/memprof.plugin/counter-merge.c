/* Two accesses to one address in one block share one counter update
   ("+= 2"), unless a call lies between them (the callee may dump the
   profile); either way the counts are exact: bump 2, move_field 4,
   bump_across_call 2 accesses per call, ten calls each.  */
/* { dg-do run } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

#include <stdlib.h>

__attribute__ ((noinline)) void
opaque (void)
{
  __asm__ volatile ("" ::: "memory");
}

__attribute__ ((noinline)) void
bump (long *r)
{
  *r += 1;
}

struct pair
{
  long total;
  int pending;
};

/* Two addresses, each loaded and stored: two counter updates of 2.  */
__attribute__ ((noinline)) void
move_field (struct pair *p)
{
  p->total += p->pending;
  p->pending = 0;
}

__attribute__ ((noinline)) void
bump_across_call (long *r)
{
  long value = *r;
  opaque ();
  *r = value + 1;
}

__attribute__ ((noinline)) struct pair *
make_block (void)
{
  return calloc (1, sizeof (struct pair));
}

int
main (void)
{
  struct pair *p = make_block ();
  for (int i = 0; i < 10; i++)
    {
      bump (&p->total);
      move_field (p);
      bump_across_call (&p->total);
    }
  int ok = p->total == 20 && p->pending == 0;
  free (p);
  return !ok;
}

/* { dg-final { scan-compiler-output "memprof: bump: 2 instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: move_field: 4 instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: bump_across_call: 2 instrumented" } } */
/* main's two loads of the fields make 82.  */
/* { dg-final { memprof-record fn=make_block<main alloc_count==1 total_access_count==82 } } */
