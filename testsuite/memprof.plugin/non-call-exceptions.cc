// -fnon-call-exceptions: memory accesses may throw, so they end their
// basic blocks; counts go before them and the program behaves the same.
// { dg-do run }
// { dg-options "-O2 -fnon-call-exceptions -fplugin-arg-memprof-stats" }

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

struct shape
{
  virtual ~shape () {}
  virtual int area (int x) { return x; }
};

struct square : shape
{
  int side = 3;
  int
  area (int x) override
  {
    if (x > 5)
      throw std::runtime_error ("too big");
    return x * side;
  }
};

int
main ()
{
  std::vector<std::unique_ptr<shape>> shapes;
  for (int i = 0; i < 10; i++)
    shapes.emplace_back (i & 1 ? static_cast<shape *> (new square)
			       : new shape);
  int total = 0;
  for (int i = 0; i < 10; i++)
    try
      {
	total += shapes[i]->area (i);
      }
    catch (const std::exception &)
      {
	total += 100;
      }
  return total != 0 + 3 + 2 + 9 + 4 + 15 + 6 + 100 + 8 + 100;
}

// { dg-final { scan-compiler-output "memprof: main: \[1-9\]\[0-9\]* instrumented" } }
