// C++ allocation stacks for the stack cache test (stack-cache.exp):
// std::map and std::string allocating inside libstdc++ (frames without
// frame pointers, stepped by their CFI) at varying recursion depths,
// and std::vector growth.  ROUNDS is argv[1].

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

static std::map<std::string, int> table;
static std::vector<long> values;

__attribute__ ((noinline)) static void
add_entry (int depth, int i)
{
  if (depth > 0)
    {
      add_entry (depth - 1, i);
      return;
    }
  std::string key (40, 'k');
  key += std::to_string (i % 97);
  table[key] += i;
  values.push_back (i);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? std::atoi (argv[1]) : 0;
  for (int i = 0; i < rounds; i++)
    {
      add_entry (i % 7, i);
      if (i % 50 == 49)
        {
          table.clear ();
          values = std::vector<long> ();
        }
    }
  return 0;
}
