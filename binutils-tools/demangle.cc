// C++ names as users read them (see demangle.h).
#include "demangle.h"

#include <cstdlib>
#include <cxxabi.h>

namespace memprof {

std::string
demangle (const std::string &name)
{
  if (name.compare (0, 2, "_Z") != 0)
    return name;
  int status = 0;
  char *d = abi::__cxa_demangle (name.c_str (), nullptr, nullptr, &status);
  if (status != 0 || !d)
    return name;
  std::string s (d);
  std::free (d);
  return s;
}

bool
function_name_matches (const std::string &linkage, const std::string &name)
{
  if (linkage == name)
    return true;
  if (linkage.compare (0, 2, "_Z") != 0 || name.empty ())
    return false;
  // A whole name: at the start or after the return type of a template
  // ("double* ns::make<double>(int)"), up to the parameters or the end.
  std::string d = demangle (linkage);
  for (size_t at = d.find (name); at != std::string::npos;
       at = d.find (name, at + 1))
    {
      size_t end = at + name.size ();
      if ((at == 0 || d[at - 1] == ' ')
          && (end == d.size () || d[end] == '('))
        return true;
    }
  return false;
}

} // namespace memprof
