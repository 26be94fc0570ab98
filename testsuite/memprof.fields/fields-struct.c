/* One hot, one warm and one never-touched array field, the struct
   allocated by malloc (sizeof *p) in a helper: exact accesses per field
   at -O0 (a += is a load and a store).  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct rec
{
  long hot;
  long warm;
  char never[64];
};

struct rec *
make_rec (void)
{
  struct rec *p = malloc (sizeof *p);
  p->hot = 0;
  p->warm = 0;
  return p;
}

__attribute__ ((noinline)) void
add_hot (struct rec *r, int n)
{
  for (int i = 0; i < n; i++)
    r->hot += i;
}

__attribute__ ((noinline)) void
add_warm (struct rec *r, int n)
{
  for (int i = 0; i < n; i++)
    r->warm += i;
}

int
main (void)
{
  struct rec *r = make_rec ();
  add_hot (r, 1000);
  add_warm (r, 10);
  int ok = r->hot == 499500 && r->warm == 45;
  free (r);
  return ok ? 0 : 1;
}

/* hot: 1 + 1000 * 2 + 1 (the check); warm: 1 + 10 * 2 + 1.  */
/* { dg-final { memprof-record fn=make_rec<main alloc_count==1 type.size==80 fields(hot).accesses==2002 fields(warm).accesses==22 fields(never).accesses==0 fields(never).cold==1 fields(hot).cold==0 fields(warm).cold==0 fields(never).offset==16 fields(never).size==64 } } */
/* { dg-final { memprof-fields-scan {^type: +rec, 80 bytes \(from .*fields-struct\.c\.exe\)$} } } */
/* { dg-final { memprof-fields-scan {^ +16 +64 +0 +0\.0%  never  \[cold\]$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(never: 64 bytes\) out of rec: its hot fields would take 16 bytes of cache lines per object instead of 64 \(48 saved per object\)$} } } */
