/* Fields sharing a slot are one row from the first's start to the
   last's end: flag (byte 0) and count (bytes 4-7) are "0 8 flag,
   count", and the 3 bytes of padding between them are no row of their
   own (the row read "0 5" above "1 3 (padding)", the same bytes twice:
   expat's parser, libsass's selectors).  Padding outside any shared row
   stays a row: after tag, before total.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct rec
{
  char flag;
  int count;
  char tag;
  long total;
};

int
main (void)
{
  struct rec *r = malloc (sizeof *r);
  r->flag = 1;
  r->count = 2;
  r->tag = 3;
  r->total = 0;
  for (int i = 0; i < 10; i++)
    r->total += r->count;
  long t = r->total;
  free (r);
  return t == 20 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^ +0 +8 +[0-9]+ +[0-9.]+%  flag, count  \[share slots: not split\]$} } } */
/* { dg-final { memprof-fields-scan {^ +9 +7 +0 +0\.0%  \(padding\)$} } } */
/* { dg-final { memprof-fields-scan-not {^ +1 +3 [^\n]*\(padding\)} } } */
