// Short-lived churn: a string built and thrown away on every iteration.
// The report shows one allocation site with tens of thousands of
// allocations, each living well under a millisecond: a candidate for
// reuse (reserve once outside the loop) or for a small-buffer type.

#include <cstdio>
#include <string>
#include <vector>

static std::string
describe (int i)
{
  std::string s = "item number ";
  s += std::to_string (i);
  s += " of the churn example, long enough to leave the small buffer";
  return s;
}

int
main ()
{
  std::vector<int> lengths;
  lengths.reserve (1000);
  unsigned long total = 0;
  for (int i = 0; i < 50000; i++)
    {
      std::string s = describe (i);
      total += s.size ();
      if (i % 50 == 0)
        lengths.push_back (static_cast<int> (s.size ()));
    }
  std::printf ("churn: %lu characters, %zu samples\n", total, lengths.size ());
  return 0;
}
