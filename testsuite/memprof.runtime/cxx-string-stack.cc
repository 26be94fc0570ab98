// C++ stacks through libstdc++ (built without frame pointers) reach the
// user function that built the string: the unwinder must step through
// _M_create/_M_mutate by their CFI instead of skipping frames.
// { dg-do run }
// { dg-options "-O2" }

#include <string>

__attribute__ ((noinline)) std::string
build_label (int i)
{
  std::string s (40, 'x');
  s += std::to_string (i);   // Grows the buffer inside libstdc++.
  return s;
}

volatile unsigned long sink;

int
main ()
{
  for (int i = 0; i < 8; i++)
    sink += build_label (i).size ();
  return 0;
}

// Both allocations happen inside libstdc++ (_M_construct, and
// _M_mutate called from _M_append; the library is an explicit
// instantiation, so these are not inlined), yet each stack continues in
// build_label at the line that allocated, then main (inlined frames of
// the string's methods may come in between).
// { dg-final { memprof-dump-scan {at [^\n]*_M_construct[^\n]*\n(by [^\n]*\[inlined\]\n)*by build_label[^\n]*cxx-string-stack.cc:12:[0-9]+\)\nby main} } }
// { dg-final { memprof-dump-scan {at [^\n]*_M_mutate[^\n]*\nby [^\n]*_M_append[^\n]*\n(by [^\n]*\[inlined\]\n)*by build_label[^\n]*cxx-string-stack.cc:13:[0-9]+\)\nby main} } }
