// Type names as the debug information has them, so the field map finds
// their layouts: all template arguments, defaults included
// (std::vector<int, std::allocator<int> >), and an anonymous namespace
// as {anonymous}.
// { dg-do run }

#include <vector>

namespace
{
struct Hidden
{
  int a, b, c;
};
}

__attribute__ ((noinline)) Hidden *
hidden ()
{
  return new Hidden ();
}

__attribute__ ((noinline)) int
rows (int n)
{
  std::vector<std::vector<int> > v (n);
  return (int) v.size ();
}

int
main ()
{
  Hidden *h = hidden ();
  int r = h->a + rows (4) - 4;
  delete h;
  return r;
}

// The allocation inside the allocator of std::vector<int> (the element
// of the outer vector): GCC 12's std::__new_allocator, GCC 11's
// __gnu_cxx::new_allocator.
// { dg-final { set alloc [expr { [memprof_gcc_major] >= 12 ? "_ZNSt15__new_allocatorISt6vectorIiSaIiEEE8allocateEmPKv" : "_ZN9__gnu_cxx13new_allocatorISt6vectorIiSaIiEEE8allocateEmPKv" }] } }
// { dg-final { memprof-record fn=$alloc alloc_count==1 total_size==96 type=std::vector<int,std::allocator<int>> type_size==24 } }
// hidden returns a type of the anonymous namespace: internal linkage, no
// linkage name; the symbolizer names it with its parameters.
// { dg-final { memprof-record fn=hidden() alloc_count==1 type={anonymous}::Hidden type_size==12 } }
// The text report spells the anonymous namespace as the function names
// do; --full-names and the JSON as GCC does.
// { dg-final { memprof-dump-scan {^type: +\(anonymous namespace\)::Hidden \(12 bytes\)$} } }
// { dg-final { memprof-dump-scan {^type: +\{anonymous\}::Hidden \(12 bytes\)$} --full-names } }
