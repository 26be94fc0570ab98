/* A nested struct whose two ints share one 8-byte slot (one row, never
   split), a union, bit-fields sharing a byte, and padding.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct msg
{
  struct
  {
    int len;
    int kind;
  } hdr;
  union
  {
    long i;
    double d;
  } u;
  unsigned char urgent : 1, acked : 1;
  long tail;
};

struct msg *
new_msg (void)
{
  struct msg *m = malloc (sizeof *m);
  return m;
}

int
main (void)
{
  struct msg *m = new_msg ();
  m->hdr.len = 5;
  m->hdr.kind = 2;
  for (int i = 0; i < 50; i++)
    m->u.i = i;
  m->urgent = 1;
  m->tail = 0;
  int ok = m->hdr.len == 5 && m->u.d != 1.5;
  free (m);
  return ok ? 0 : 1;
}

/* hdr.len and hdr.kind: 2 stores and 1 load in one slot; u: 50 stores
   and 1 load; the bit-field store is one access (a store to a bit-field component).  */
/* { dg-final { memprof-record fn=new_msg<main type.size==32 {fields(hdr.len, hdr.kind).accesses==3} fields(hdr.len, hdr.kind).shared==1 fields(u).accesses==51 fields(tail).accesses==1 } } */
/* { dg-final { memprof-fields-scan {^ +0 +8 +3 .*  hdr\.len, hdr\.kind  \[share slots: not split\]$} } } */
/* { dg-final { memprof-fields-scan {^ +8 +8 +51 .*  u  \[union of i \| d\]$} } } */
/* { dg-final { memprof-fields-scan {^ +16 +1 +1 .*  urgent, acked  \[share slots: not split\]$} } } */
/* { dg-final { memprof-fields-scan {^ +17 +7 +0 .*  \(padding\)$} } } */
