/* A struct larger than the histogram (the runtime keeps a block's first
   512 slots, 4 KiB): its fields past them are "not counted", one that
   runs past them is "partly counted" (its first bytes' accesses shown,
   the rest unknown: middle, never touched, is not called cold); neither
   is reported cold, and no saving is computed.  The accesses line says
   how many of the blocks' accesses the fields account for (tail's 11
   are past the histogram).  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct big
{
  long head;
  char middle[8000];
  long tail;
};

struct big *
make_big (void)
{
  struct big *b = malloc (sizeof *b);
  b->head = 1;
  b->tail = 2;
  return b;
}

int
main (void)
{
  struct big *b = make_big ();
  long sum = 0;
  for (int i = 0; i < 10; i++)
    sum += b->head + b->tail;
  free (b);
  return sum == 30 ? 0 : 1;
}

/* { dg-final { memprof-record fn=make_big<main type.size==8016 fields(head).accesses==11 fields(middle).cold==0 fields(tail).cold==0 } } */
/* { dg-final { memprof-fields-scan {^ +8 +8000 +0 +-  middle  \[runs past the histogram: partly counted\]$} } } */
/* { dg-final { memprof-fields-scan {^ +8008 +8 +- +-  tail  \[past the histogram: not counted\]$} } } */
/* { dg-final { memprof-fields-scan {^accesses: +11 of the blocks' 22 \(a histogram holds each block's first 4,096 bytes\)$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: none: 2 fields of big lie past the histogram's end, their accesses unknown$} } } */
