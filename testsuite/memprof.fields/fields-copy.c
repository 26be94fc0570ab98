/* A struct copied whole into a heap block (*dst = src, an aggregate
   assignment GCC keeps as one statement): in histogram mode it counts
   once in every slot it covers, as a memcpy of it would, so the fields
   after the first are not reported as never written.  50 copies into
   the block; then the first field read 100 times.  The struct's 72
   bytes are 9 slots; the block starts on a slot boundary, so the copy
   adds exactly 1 to each.  Also at -O2 (fields-copy-O2.c).  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct entry
{
  long hits;
  long spare[7];
  long last;
};

__attribute__ ((noinline)) void
store (struct entry *dst, const struct entry *src)
{
  *dst = *src;
}

int
main (void)
{
  struct entry *e = malloc (sizeof *e);
  struct entry local = { 0 };
  for (int i = 0; i < 50; i++)
    {
      local.hits = i;
      store (e, &local);
    }
  long sum = 0;
  for (int i = 0; i < 100; i++)
    sum += ((volatile struct entry *) e)->hits;
  int ok = sum == 4900 && e->last == 0;
  free (e);
  return ok ? 0 : 1;
}

/* hits: 50 copies + 100 reads + 0 (e->last is read, not hits);
   spare: 50 per slot, 7 slots; last: 50 copies + 1 read.  */
/* { dg-final { memprof-record fn=main type.size==72 fields(hits).accesses==150 fields(spare).accesses==350 fields(last).accesses==51 fields(spare).cold==0 fields(last).cold==0 } } */
