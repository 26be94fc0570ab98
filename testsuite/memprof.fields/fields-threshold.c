/* A field is cold under 1% of the accesses.  Of 10,000, a has 99
   (0.99%: cold) and b 100 (1.00%: not): with one decimal both read
   "1.0%", one of them [cold] (cmark's cmark_parser, expat's parser);
   a cold row that rounds to 1.0% shows two decimals.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct rec
{
  long hot;
  long a;
  long b;
};

int
main (void)
{
  struct rec *r = malloc (sizeof *r);
  r->hot = 1;
  r->a = 1;
  r->b = 1;
  volatile struct rec *v = r;
  long s = 0;
  for (int i = 0; i < 9800; i++)
    s += v->hot;
  for (int i = 0; i < 98; i++)
    s += v->a;
  for (int i = 0; i < 99; i++)
    s += v->b;
  free (r);
  return s == 9800 + 98 + 99 ? 0 : 1;
}

/* { dg-final { memprof-record fn=main fields(hot).accesses==9801 fields(a).accesses==99 fields(b).accesses==100 fields(a).cold==1 fields(b).cold==0 } } */
/* { dg-final { memprof-fields-scan {^ +8 +8 +99 +0\.99%  a  \[cold\]$} } } */
/* { dg-final { memprof-fields-scan {^ +16 +8 +100 +1\.0%  b$} } } */
