/* A struct allocated shorter than its type (its tail left out, the
   blocks 16 bytes of a 96-byte struct): the fields past the blocks' end
   are not in them at all, so they are shown as not allocated, never
   called cold, and no saving is computed.  a is read 10 times, b never
   (it is cold); both are written once.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stddef.h>
#include <stdlib.h>

struct rec
{
  long a;
  long b;
  long tail[10];
};

struct rec *
make_short (void)
{
  struct rec *r = malloc (offsetof (struct rec, tail));
  r->a = 1;
  r->b = 2;
  return r;
}

int
main (void)
{
  long sum = 0;
  for (int i = 0; i < 10; i++)
    {
      struct rec *r = make_short ();
      for (int k = 0; k < 100; k++)
        sum += r->a;
      free (r);
    }
  return sum == 1000 ? 0 : 1;
}

/* { dg-final { memprof-record fn=make_short<main type.size==96 fields(a).accesses==1010 fields(b).accesses==10 fields(b).cold==1 fields(tail).cold==0 } } */
/* { dg-final { memprof-fields-scan {^ +16 +80 +- +-  tail  \[past the blocks' end: not allocated\]$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: none: 1 fields of rec lie past the end of its blocks \(allocated shorter than the type\); cold among the others: b$} } } */
