/* An array of small structs from calloc (n, sizeof *p): the block's
   slots fold onto the element's fields (blocks of 100 items).  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct item
{
  long key;
  long count;
  char note[16];
};

struct item *
make_items (int n)
{
  struct item *p = calloc (n, sizeof *p);
  return p;
}

int
main (void)
{
  struct item *items = make_items (100);
  long sum = 0;
  for (int round = 0; round < 3; round++)
    for (int i = 0; i < 100; i++)
      {
        sum += items[i].key;
        if (round == 0)
          items[i].count++;
      }
  free (items);
  return sum == 0 ? 0 : 1;
}

/* key: 3 rounds of 100 loads; count: 100 loads and 100 stores; note:
   never (calloc's zeroing is not counted).  */
/* { dg-final { memprof-record fn=make_items<main alloc_count==1 total_size==3200 type.size==32 fields(key).accesses==300 fields(count).accesses==200 fields(note).accesses==0 fields(note).cold==1 } } */
/* { dg-final { memprof-fields-scan {^objects: +100 in 1 block \(arrays: slots folded per object\)$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(note: 16 bytes\) out of item: its hot fields would take 16 bytes of cache lines per object instead of 32 \(16 saved per object, 1600 over its 100 objects\)$} } } */
