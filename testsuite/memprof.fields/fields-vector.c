/* Accesses wider than a slot, or not aligned to their size, count in
   every slot they cover in histogram mode.  At -O3 (GCC 11 and 12) make
   stores where's four longs as two 16-byte vector stores (movups at
   32 and 48) and s0..s3 as two 8-byte stores at 12 and 20, each across
   two slots.  Counted at their first byte, where.column and where.end
   read 0 and were called cold, and s3 too (cmark's cmark_node,
   libsass's ParserState copies).  40 nodes, each written once and its
   kind read once: slots 1 and 2 take two stores each (flags and s0's
   store; the two int stores), every other slot one.  */
/* { dg-do run } */
/* { dg-options "-O3 -fheapprof-histogram" } */

#include <stdlib.h>

struct pos { long line; long column; long offset; long end; };
struct node { long kind; int flags; int s0, s1, s2, s3; int pad; struct pos where; };

__attribute__ ((noinline)) struct node *
make (long kind, const long *src, const int *isrc)
{
  struct node *n = malloc (sizeof *n);
  n->kind = kind;
  n->flags = 0;
  n->s0 = isrc[0];
  n->s1 = isrc[1];
  n->s2 = isrc[2];
  n->s3 = isrc[3];
  n->where.line = src[0];
  n->where.column = src[1];
  n->where.offset = src[2];
  n->where.end = src[3];
  return n;
}

int
main (void)
{
  struct node *keep[40];
  long src[4] = { 1, 2, 3, 4 };
  int isrc[4] = { 5, 6, 7, 8 };
  for (int i = 0; i < 40; i++)
    keep[i] = make (i, src, isrc);
  long s = 0;
  for (int i = 0; i < 40; i++)
    {
      s += keep[i]->kind;
      free (keep[i]);
    }
  return s != 780;
}

/* { dg-final { memprof-record fn=make type.size==64 histogram.0==80 histogram.1==80 histogram.2==80 histogram.3==40 histogram.4==40 histogram.5==40 histogram.6==40 histogram.7==40 fields(where.column).cold==0 fields(where.end).cold==0 } } */
