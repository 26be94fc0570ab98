/* An allocator that keeps each block's size in 8 bytes before the block
   it returns (SQLite's sqlite3MemMalloc): the type the caller names
   starts 8 bytes into the block, so its fields are mapped from there
   and the header's accesses are counted apart (before, the header's
   were the first field's and every field took the one before it's).
   Arrays through it are folded past the header; a structure with a
   flexible array member through it is one object a block (it was
   counted as arrays past the header); its bytes past the type take
   most of its accesses, so the suggestion says the 1% that makes a
   field cold is of the accesses to the type's own bytes.  Each item's hot is
   written once and read in 10 walks (1,100); the header is written at
   the allocation and read at the free (200).  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct item
{
  long hot;
  long cold[3];
};

__attribute__ ((noinline)) void *
sized_malloc (size_t n)
{
  long long *p = malloc (n + sizeof *p);
  if (!p)
    abort ();
  p[0] = n;
  return p + 1;
}

__attribute__ ((noinline)) void
sized_free (void *v)
{
  long long *p = (long long *) v - 1;
  if (p[0] < 0)
    abort ();
  free (p);
}

__attribute__ ((noinline)) struct item *
new_items (size_t n)
{
  return sized_malloc (n * sizeof (struct item));
}

struct chunk
{
  struct chunk *next;
  char data[];
};

__attribute__ ((noinline)) struct chunk *
new_chunk (size_t n)
{
  struct chunk *c = sized_malloc (sizeof *c + n);
  c->next = 0;
  for (size_t i = 0; i < n; i++)
    c->data[i] = i;
  return c;
}

int
main (void)
{
  struct item *it[100];
  for (int i = 0; i < 100; i++)
    {
      it[i] = sized_malloc (sizeof (struct item));
      it[i]->hot = i;
    }
  long sum = 0;
  for (int r = 0; r < 10; r++)
    for (int i = 0; i < 100; i++)
      sum += it[i]->hot;
  for (int i = 0; i < 100; i++)
    sized_free (it[i]);
  /* 4 arrays of 5 items; each item's cold[2] written once.  */
  for (int k = 0; k < 4; k++)
    {
      struct item *v = new_items (5);
      for (int i = 0; i < 5; i++)
        v[i].cold[2] = i;
      sized_free (v);
    }
  /* 3 chunks of 8 + 8 + 56 bytes, each next written once.  */
  for (int k = 0; k < 3; k++)
    sized_free (new_chunk (56));
  return sum != 49500;
}

/* { dg-final { memprof-record fn=sized_malloc<main alloc_count==100 type.size==32 type.offset==8 fields(hot).accesses==1100 fields(cold).accesses==0 fields(cold).cold==1 } } */
/* { dg-final { memprof-record fn=sized_malloc<new_items<main alloc_count==4 total_size==672 type.offset==8 fields(cold).accesses==20 fields(hot).accesses==0 } } */
/* { dg-final { memprof-dump-scan {^type: +item \(32 bytes\), after an allocator header of 8 bytes$} } } */
/* { dg-final { memprof-fields-scan {^ +- +8 +200 +15\.4%  \(allocator header: kept by the allocation wrapper before the block it returns\)$} } } */
/* { dg-final { memprof-fields-scan {^objects: +20 in 4 blocks \(arrays: slots folded per object\)$} } } */
/* { dg-final { memprof-record fn=sized_malloc<new_chunk<main alloc_count==3 total_size==216 type.offset==8 type.header==1 fields(next).accesses==3 } } */
/* { dg-final { memprof-fields-scan {^objects: +3 in 3 blocks$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: no cold fields: every field of chunk has 1% of the accesses to its own bytes or more$} } } */
