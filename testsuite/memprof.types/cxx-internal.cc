// One allocation site with two instances over types of an anonymous
// namespace: std::__new_allocator<T>::allocate for A and for B.  Neither
// instance has a linkage name; the symbolizer names each from its
// scopes, and each frame joins its own record of the type table (by the
// records' names demangled), where the two records at the one position
// used to disagree and leave the type unknown.
// { dg-do run }

#include <vector>

namespace
{
struct A
{
  int x;
};

struct B
{
  double y[3];
};
}

int
main ()
{
  std::vector<A> a;
  std::vector<B> b;
  for (int i = 0; i < 5; i++)
    {
      a.push_back (A{ i });
      b.push_back (B{});
    }
  return (int) (a.size () + b.size ()) - 10;
}

// GCC 12's std::__new_allocator, GCC 11's __gnu_cxx::new_allocator.
// { dg-final { memprof-dump-scan {type:\s+\(anonymous namespace\)::A \(4 bytes\)\n(?:[a-z]+:[^\n]*\n)*at (?:std::__new_allocator|__gnu_cxx::new_allocator)<\(anonymous namespace\)::A>::allocate\(} } }
// { dg-final { memprof-dump-scan {type:\s+\(anonymous namespace\)::B \(24 bytes\)\n(?:[a-z]+:[^\n]*\n)*at (?:std::__new_allocator|__gnu_cxx::new_allocator)<\(anonymous namespace\)::B>::allocate\(} } }
