// Shorter C++ standard library names.  Written by hand: the rules are
// GDB's type printers' (a Python part of GDB, not a library), over the
// names' text: a template's arguments, rewritten first, lose the
// trailing ones that are the template's defaults for the ones before.
#include "short_names.h"

#include <cctype>
#include <unordered_map>
#include <vector>

namespace memprof {

namespace {

bool shorten = true;

bool
name_char (char c)
{
  return std::isalnum ((unsigned char) c) || c == '_' || c == ':';
}

// S without blanks, so that "std::pair<const long, int>" and
// "std::pair<const long,int>" compare equal.
std::string
squeezed (const std::string &s)
{
  std::string out;
  for (char c : s)
    if (c != ' ')
      out += c;
  return out;
}

std::string
trimmed (const std::string &s)
{
  size_t b = s.find_first_not_of (' ');
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of (' ');
  return s.substr (b, e - b + 1);
}

// The '>' closing the '<' at OPEN (brackets and parentheses nested), or
// npos.
size_t
matching_close (const std::string &s, size_t open)
{
  int depth = 0;
  for (size_t i = open; i < s.size (); i++)
    {
      char c = s[i];
      if (c == '<' || c == '(' || c == '[')
        depth++;
      else if (c == '>' || c == ')' || c == ']')
        {
          if (--depth == 0)
            return c == '>' ? i : std::string::npos;
          if (depth < 0)
            return std::string::npos;
        }
    }
  return std::string::npos;
}

// The arguments of a template argument list (without its brackets).
std::vector<std::string>
split_arguments (const std::string &s)
{
  std::vector<std::string> args;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size (); i++)
    {
      char c = s[i];
      if (c == '<' || c == '(' || c == '[')
        depth++;
      else if (c == '>' || c == ')' || c == ']')
        depth--;
      else if (c == ',' && depth == 0)
        {
          args.push_back (trimmed (s.substr (start, i - start)));
          start = i + 1;
        }
    }
  args.push_back (trimmed (s.substr (start)));
  return args;
}

// Whether OUT ends in the word "operator" ("operator<" opens no
// argument list).
bool
ends_in_operator (const std::string &out)
{
  static const std::string op = "operator";
  if (out.size () < op.size ()
      || out.compare (out.size () - op.size (), op.size (), op) != 0)
    return false;
  size_t before = out.size () - op.size ();
  return before == 0 || !std::isalnum ((unsigned char) out[before - 1]);
}

bool
same (const std::string &a, const std::string &b)
{
  return squeezed (a) == squeezed (b);
}

std::string
std_name (const std::string &qualified)
{
  static const std::string cxx11 = "std::__cxx11::";
  if (qualified.compare (0, cxx11.size (), cxx11) == 0)
    return "std::" + qualified.substr (cxx11.size ());
  return qualified;
}

// Whether argument I of template NAME is its default given the
// arguments before it.
bool
is_default (const std::string &name, const std::vector<std::string> &a,
            size_t i)
{
  const std::string &k = a[0];
  auto alloc_of = [&] (const std::string &t) {
    return same (a[i], "std::allocator<" + t + ">");
  };
  auto pair_alloc = [&] () {
    return a.size () > 1
           && (alloc_of ("std::pair<const " + k + ", " + a[1] + ">")
               || alloc_of ("std::pair<" + k + " const, " + a[1] + ">"));
  };
  if (name == "std::vector" || name == "std::deque" || name == "std::list"
      || name == "std::forward_list")
    return i == 1 && alloc_of (k);
  if (name == "std::set" || name == "std::multiset")
    return (i == 1 && same (a[i], "std::less<" + k + ">"))
           || (i == 2 && alloc_of (k));
  if (name == "std::map" || name == "std::multimap")
    return (i == 2 && same (a[i], "std::less<" + k + ">"))
           || (i == 3 && pair_alloc ());
  if (name == "std::unordered_set" || name == "std::unordered_multiset")
    return (i == 1 && same (a[i], "std::hash<" + k + ">"))
           || (i == 2 && same (a[i], "std::equal_to<" + k + ">"))
           || (i == 3 && alloc_of (k));
  if (name == "std::unordered_map" || name == "std::unordered_multimap")
    return (i == 2 && same (a[i], "std::hash<" + k + ">"))
           || (i == 3 && same (a[i], "std::equal_to<" + k + ">"))
           || (i == 4 && pair_alloc ());
  if (name == "std::unique_ptr")
    return i == 1 && same (a[i], "std::default_delete<" + k + ">");
  if (name == "std::basic_string" || name == "std::basic_stringstream"
      || name == "std::basic_istringstream"
      || name == "std::basic_ostringstream" || name == "std::basic_stringbuf"
      || name == "std::basic_ostream" || name == "std::basic_istream"
      || name == "std::basic_iostream" || name == "std::basic_ios"
      || name == "std::basic_streambuf" || name == "std::basic_filebuf"
      || name == "std::basic_ifstream" || name == "std::basic_ofstream"
      || name == "std::basic_fstream")
    return (i == 1 && same (a[i], "std::char_traits<" + k + ">"))
           || (i == 2 && alloc_of (k));
  return false;
}

// The typedef the standard library gives NAME<ARG>, or "": std::string,
// std::wostream, ...
std::string
standard_typedef (const std::string &name, const std::string &arg)
{
  static const char *const kinds[] = {
    "string", "stringstream", "istringstream", "ostringstream", "stringbuf",
    "ostream", "istream", "iostream", "ios", "streambuf", "filebuf",
    "ifstream", "ofstream", "fstream",
  };
  for (const char *kind : kinds)
    if (name == std::string ("std::basic_") + kind)
      {
        if (arg == "char")
          return std::string ("std::") + kind;
        if (arg == "wchar_t")
          return std::string ("std::w") + kind;
        if (std::string (kind) == "string"
            && (arg == "char8_t" || arg == "char16_t" || arg == "char32_t"))
          return "std::u" + arg.substr (4, arg.size () - 6) + "string";
        return "";
      }
  return "";
}

// QUALIFIED<ARGS> (the arguments rewritten) with its default arguments
// left out.
std::string
simplified (const std::string &qualified, std::vector<std::string> args)
{
  std::string name = std_name (qualified);
  while (args.size () > 1 && is_default (name, args, args.size () - 1))
    args.pop_back ();
  if (args.size () == 1)
    {
      std::string t = standard_typedef (name, args[0]);
      if (!t.empty ())
        return t;
    }
  std::string out = qualified + "<";
  for (size_t i = 0; i < args.size (); i++)
    out += (i ? ", " : "") + args[i];
  if (!out.empty () && out.back () == '>')
    out += ' ';
  return out + ">";
}

std::string
rewrite (const std::string &s)
{
  std::string out;
  size_t i = 0;
  while (i < s.size ())
    {
      char c = s[i];
      if (c == '<' && i > 0 && name_char (s[i - 1])
          && !ends_in_operator (out))
        {
          size_t close = matching_close (s, i);
          if (close == std::string::npos)
            {
              out += s.substr (i);
              break;
            }
          size_t start = out.size ();
          while (start > 0 && name_char (out[start - 1]))
            start--;
          std::string qualified = out.substr (start);
          out.erase (start);
          std::vector<std::string> args;
          for (const std::string &a
               : split_arguments (s.substr (i + 1, close - i - 1)))
            args.push_back (rewrite (a));
          out += simplified (qualified, args);
          i = close + 1;
          continue;
        }
      out += c;
      i++;
    }
  return out;
}

} // namespace

std::string
short_cxx_name (const std::string &name)
{
  if (name.find ("std::") == std::string::npos)
    return name;
  std::string s = rewrite (name);
  static const std::string cxx11 = "std::__cxx11::";
  for (size_t at; (at = s.find (cxx11)) != std::string::npos;)
    s.replace (at, cxx11.size (), "std::");
  return s;
}

// GCC names an anonymous namespace "{anonymous}" in types, the
// demangler "(anonymous namespace)" in functions: one spelling in a
// report.
static std::string
demangler_spelling (std::string s)
{
  static const std::string gcc = "{anonymous}";
  for (size_t at; (at = s.find (gcc)) != std::string::npos;)
    s.replace (at, gcc.size (), "(anonymous namespace)");
  return s;
}

void
set_short_names (bool on)
{
  shorten = on;
}

bool
short_names ()
{
  return shorten;
}

std::string
display_name (const std::string &name)
{
  if (!shorten)
    return name;
  // A report names the same functions and types over and over (every
  // context's stack): each is rewritten once.  The reports are written
  // by one thread.
  static std::unordered_map<std::string, std::string> done;
  auto it = done.find (name);
  if (it == done.end ())
    it = done.emplace (name, demangler_spelling (short_cxx_name (name)))
           .first;
  return it->second;
}

} // namespace memprof
