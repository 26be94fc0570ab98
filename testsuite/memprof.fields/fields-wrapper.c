/* A struct reached through an xmalloc-style wrapper (the type comes from
   the caller's conversion), holding an array of structs folded per
   element (items[].key); and a char buffer, whose type is unknown: no
   field report for it, and no error.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>
#include <string.h>

struct pair
{
  long key;
  long val;
};

struct table
{
  long n;
  struct pair items[32];
};

void *
xmalloc (size_t n)
{
  void *p = malloc (n);
  if (!p)
    abort ();
  return p;
}

struct table *
new_table (void)
{
  struct table *t = xmalloc (sizeof *t);
  t->n = 32;
  return t;
}

int
main (void)
{
  struct table *t = new_table ();
  for (int i = 0; i < 32; i++)
    t->items[i].key = i;
  long sum = 0;
  for (int round = 0; round < 4; round++)
    for (int i = 0; i < 32; i++)
      sum += t->items[i].key;
  char *buf = xmalloc (64);
  buf[0] = 'x';
  int ok = sum == 4 * 496 && buf[0] == 'x';
  free (buf);
  free (t);
  return ok ? 0 : 1;
}

/* n: 1 store, 0.6% of the accesses: cold too; items[].key: 32 stores
   and 4 * 32 loads; val: never.  */
/* { dg-final { memprof-record fn=xmalloc<new_table<main type.size==520 fields(n).accesses==1 fields(n).cold==1 {fields(items[].key).accesses==160} {fields(items[].key).cold==0} {fields(items[].val).accesses==0} {fields(items[].val).cold==1} } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(n, items\[\]\.val: 264 bytes\) out of table: its hot fields would take 256 bytes of cache lines per object instead of 520 \(264 saved per object\)$} } } */
/* The buffer: no type, so its record has no fields and is counted as
   unknown in the field report.  */
/* { dg-final { memprof-fields-scan {^\(1 context of unknown type or layout not shown\)$} } } */
