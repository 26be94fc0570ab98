// Types the debug information leaves unnamed, named as the C++ front
// end prints them: a lambda's closure by its function and signature, an
// unnamed struct as <unnamed struct>.  (The plugin crashed on them:
// DWARF gives them no name.)
// { dg-do run }

#include <functional>
#include <memory>

struct
{
  int a, b;
} proto;

__attribute__ ((noinline)) auto *
closure (int k)
{
  auto add = [k] (int x) { return x + k; };
  return new decltype (add) (add);
}

__attribute__ ((noinline)) decltype (proto) *
unnamed ()
{
  return new decltype (proto) ();
}

// Captures too big for std::function's local buffer: it allocates the
// closure.
__attribute__ ((noinline)) std::function<double (double)> *
wrapped (double a, double b, double c)
{
  return new std::function<double (double)> ([a, b, c] (double x) { return a * x + b * x + c; });
}

// The control block holds the closure (its cast in __aligned_buffer is
// a site with an unnamed type too).
__attribute__ ((noinline)) int
shared (int k)
{
  auto twice = [k] (int x) { return 2 * x + k; };
  auto p = std::make_shared<decltype (twice)> (twice);
  return (*p) (0) - k;
}

int
main ()
{
  auto *c = closure (2);
  auto *u = unnamed ();
  auto *f = wrapped (1, 2, 3);
  int r = (*c) (1) - 3 + u->a + u->b + (int) (*f) (0) - 3 + shared (0);
  delete c;
  delete u;
  delete f;
  return r;
}

// (Blanks in type names are not compared.)
// { dg-final { memprof-record fn=_Z7closurei alloc_count==1 type=closure(int)::<lambda(int)> type_size==4 } }
// unnamed returns a type without linkage: it has internal linkage, no
// linkage name; the symbolizer names it with its parameters.
// { dg-final { memprof-record fn=unnamed() alloc_count==1 type=<unnamedstruct> type_size==8 } }
// { dg-final { memprof-record file=std_function.h alloc_count==1 type=wrapped(double,double,double)::<lambda(double)> type_size==24 } }
// { dg-final { memprof-record file=new_allocator.h alloc_count==1 } }
