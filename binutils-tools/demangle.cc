// C++ names as users read them (see demangle.h).
#include "demangle.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <vector>

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

// Whether NAME is a whole name in the demangled name D, or its last
// scopes: at the start, after the return type of a template ("double*
// ns::make<double>(int)") or after a "::" ("Table::add" in
// "ns::Table::add(long)", as gdb matches a linespec), up to the
// parameters or the end; never inside a parameter or template argument
// list.
static bool
whole_name_in (const std::string &d, const std::string &name)
{
  for (size_t at = d.find (name); at != std::string::npos;
       at = d.find (name, at + 1))
    {
      size_t end = at + name.size ();
      if (end != d.size () && d[end] != '(')
        continue;
      // Outside parentheses (not inside "(anonymous namespace)" or a
      // parameter list) and template arguments.
      auto before = [&] (char c) {
        return std::count (d.begin (), d.begin () + at, c);
      };
      bool outside = before ('(') == before (')')
                     && before ('<') == before ('>');
      if (at == 0
          || (outside && d[at - 1] == ' ')
          || (outside && at >= 2 && d.compare (at - 2, 2, "::") == 0))
        return true;
    }
  return false;
}

static const char kAnonymous[] = "(anonymous namespace)::";

static size_t list_start (const std::string &name, size_t end, char open,
                          char close);

// D without the template arguments of the function itself
// ("Heap::makeEntity<Thunk, int>(int)" -> "Heap::makeEntity(int)"), or
// D when it has none.
static std::string
without_own_template_args (const std::string &d)
{
  size_t end = d.size ();
  for (const char *q : { " &&", " &", " volatile", " const" })
    {
      size_t n = std::strlen (q);
      if (end >= n && d.compare (end - n, n, q) == 0)
        end -= n;
    }
  size_t open = end && d[end - 1] == ')' ? list_start (d, end, '(', ')')
                                         : end;
  if (open == std::string::npos || open == 0 || d[open - 1] != '>')
    return d;
  size_t lt = list_start (d, open, '<', '>');
  if (lt == std::string::npos || lt == 0
      || d.compare (0, lt, "operator") == 0
      || (lt >= 8 && d.compare (lt - 8, 8, "operator") == 0))
    return d;
  return d.substr (0, lt) + d.substr (open);
}

bool
function_name_matches (const std::string &linkage, const std::string &name)
{
  if (linkage == name)
    return true;
  if (name.empty ())
    return false;
  // A name the symbolizer built from DWARF scopes reads as a demangled
  // one; a C name has no parameters nor spaces, so only itself matches.
  std::string d = demangle (linkage);
  if (whole_name_in (d, name))
    return true;
  // Users may leave out anonymous namespaces (the source names the
  // function without them) and, as gdb lets them, a function
  // template's arguments: "make" is every ns::make<T>.
  bool anonymous = d.find (kAnonymous) != std::string::npos;
  for (size_t at; (at = d.find (kAnonymous)) != std::string::npos;)
    d.erase (at, sizeof kAnonymous - 1);
  if (anonymous && whole_name_in (d, name))
    return true;
  // And, as gdb lets them, the ABI tags GCC gives every function
  // returning a std::string: "asString" is Json::Value::asString
  // [abi:cxx11]() const.
  if (name.find ("[abi:") == std::string::npos)
    {
      bool tagged = false;
      for (size_t at; (at = d.find ("[abi:")) != std::string::npos;)
        {
          size_t end = d.find (']', at);
          if (end == std::string::npos)
            break;
          d.erase (at, end - at + 1);
          tagged = true;
        }
      if (tagged && whole_name_in (d, name))
        return true;
    }
  if (name.find ('<') != std::string::npos)
    return false;
  std::string bare = without_own_template_args (d);
  return bare != d && whole_name_in (bare, name);
}

// The position of the '(' or '<' that opens the list ending just before
// END in NAME, or npos.
static size_t
list_start (const std::string &name, size_t end, char open, char close)
{
  int depth = 0;
  for (size_t i = end; i-- > 0;)
    if (name[i] == close)
      depth++;
    else if (name[i] == open && --depth == 0)
      return i;
  return std::string::npos;
}

static bool
ends_with (const std::string &s, size_t end, const char *suffix)
{
  size_t n = std::strlen (suffix);
  return end >= n && s.compare (end - n, n, suffix) == 0;
}

std::string
unqualified_name (const std::string &function)
{
  if (function.compare (0, 2, "_Z") == 0)
    return function;
  size_t end = function.size ();
  // The qualifiers of a member function, its parameters, an ABI tag.
  for (const char *q : { " &&", " &", " volatile", " const" })
    if (ends_with (function, end, q))
      end -= std::strlen (q);
  if (end && function[end - 1] == ')')
    {
      size_t open = list_start (function, end, '(', ')');
      if (open != std::string::npos && !ends_with (function, open, "operator"))
        end = open;
    }
  size_t tag = function.rfind ("[abi:", end);
  if (tag != std::string::npos && function.find (']', tag) + 1 == end)
    end = tag;
  // An operator's name holds punctuation: it starts at "operator".
  size_t op = function.rfind ("operator", end);
  if (op != std::string::npos
      && (op == 0 || function[op - 1] == ':' || function[op - 1] == ' ')
      && (op + 8 == end || !std::isalnum ((unsigned char) function[op + 8]))
      && function.find ("::", op) >= end)
    {
      std::string name = function.substr (op, std::min (function.find (" <", op + 8), end) - op);
      // GCC's DW_AT_name spells "operator new []".
      if (ends_with (name, name.size (), " []"))
        name.erase (name.size () - 3, 1);
      return name;
    }
  if (end && function[end - 1] == '>')
    end = list_start (function, end, '<', '>');
  if (end == std::string::npos)
    return function;
  // The name starts after the last "::" or space outside brackets.
  int depth = 0;
  size_t start = end;
  for (; start > 0; start--)
    {
      char c = function[start - 1];
      depth += c == '>' || c == ')' ? 1 : c == '<' || c == '(' ? -1 : 0;
      if (depth == 0 && (c == ':' || c == ' '))
        break;
    }
  return function.substr (start, end - start);
}

bool
constructor_name (const std::string &function)
{
  std::string d = demangle (function);
  // The scopes and name: up to the parameter list, the first '('
  // outside template arguments that does not open "(anonymous
  // namespace)".
  static const char kAnon[] = "(anonymous namespace)";
  std::vector<std::string> parts (1);
  int depth = 0;
  for (size_t i = 0; i < d.size (); i++)
    {
      char c = d[i];
      if (c == '(' && depth == 0 && d.compare (i, sizeof kAnon - 1, kAnon) != 0)
        break;
      if (c == '(' && depth == 0)
        {
          parts.back () += kAnon;
          i += sizeof kAnon - 2;
          continue;
        }
      if (c == ' ' && depth == 0)
        return false;           // A return type: no constructor has one.
      depth += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (depth == 0 && c == ':' && i + 1 < d.size () && d[i + 1] == ':')
        {
          parts.emplace_back ();
          i++;
          continue;
        }
      parts.back () += c;
    }
  if (parts.size () < 2)
    return false;
  const std::string &cls = parts[parts.size () - 2];
  // A template constructor has its own template arguments:
  // std::wstring's basic_string<std::allocator<wchar_t> > (const
  // wchar_t *, ...), whose buffer took the new-expression's record.
  std::string name = parts.back ().substr (0, parts.back ().find ('<'));
  return !name.empty () && name == cls.substr (0, cls.find ('<'));
}

bool
library_function (const std::string &function)
{
  std::string d = demangle (function);
  // The scopes start the name, or follow a template's return type
  // ("void std::vector<int, ...>::_M_realloc_insert<...>(...)"): the
  // first space outside brackets, before the parameters.
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < d.size (); i++)
    {
      char c = d[i];
      if (c == '(' && depth == 0)
        break;
      depth += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (c == ' ' && depth == 0)
        start = i + 1;
    }
  return standard_library_name (d.substr (start));
}

} // namespace memprof
