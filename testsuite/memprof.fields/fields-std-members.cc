// A class of the program's with members of standard library types: each
// such member is one row (its parts are the library's, only the member
// as a whole can move), so a std::string member used only when the
// object is made and destroyed is one cold field, not three cold parts
// of basic_string.  The other members are read 10,000 times each.
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <memory>
#include <string>
#include <vector>

struct Record
{
  long id;
  std::string name;
  std::vector<int> values;
  std::unique_ptr<long> extra;
};

Record *
make_record ()
{
  return new Record ();
}

int
main ()
{
  Record *r = make_record ();
  r->values.push_back (5);
  r->extra.reset (new long (1));
  long sum = 0;
  for (int i = 0; i < 10000; i++)
    sum += r->id + (long) r->values.size () + *r->extra;
  delete r;
  return sum == 20000 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^type: +Record, 72 bytes} --function=make_record } } */
/* { dg-final { memprof-fields-scan {^ +8 +32 +\d+ +\S+%  name  \[cold\]$} --function=make_record } } */
/* { dg-final { memprof-fields-scan {^ +40 +24 +\d+ +\S+%  values$} --function=make_record } } */
/* { dg-final { memprof-fields-scan {^ +64 +8 +\d+ +\S+%  extra$} --function=make_record } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(name: 32 bytes\) out of Record: } --function=make_record } } */
/* { dg-final { memprof-fields-scan-not {_M_} --function=make_record } } */
