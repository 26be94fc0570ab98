// Standard library members the program's debug info does not describe
// whole, and arrays of them.  std::ifstream is instantiated in
// libstdc++.so: the program's DWARF only declares it (no size), so the
// member reaches to the next member (one row, not padding).  An array of
// std::string is one row per element, folded ("lines[]"), not the
// string's internals.
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <fstream>
#include <string>

struct Reader
{
  std::ifstream in;
  std::string lines[4];
  long count;
};

Reader *
make_reader ()
{
  return new Reader ();
}

int
main ()
{
  Reader *r = make_reader ();
  for (int i = 0; i < 10000; i++)
    r->count++;
  r->lines[1] = "x";
  long n = r->count;
  delete r;
  return n == 10000 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^type: +Reader, 656 bytes} --function=make_reader } } */
/* Both library members are barely touched (constructed, destroyed,
   one assignment) beside count's 1 + 2 * 10,000 + 1 accesses.  */
/* { dg-final { memprof-fields-scan {^ +0 +520 +\d+ +\S+%  in  \[cold\]$} --function=make_reader } } */
/* { dg-final { memprof-fields-scan {^ +520 +32 +\d+ +\S+%  lines\[\]  \[cold\]$} --function=make_reader } } */
/* { dg-final { memprof-fields-scan {^ +648 +8 +20002 +\S+%  count$} --function=make_reader } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(in, lines\[\]: 648 bytes\) out of Reader: } --function=make_reader } } */
/* { dg-final { memprof-fields-scan-not {_M_|\(padding\)} --function=make_reader } } */
