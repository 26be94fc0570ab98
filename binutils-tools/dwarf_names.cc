// Names of functions without a linkage name (see dwarf_names.h).  The
// names follow what abi::__cxa_demangle prints for a mangled name:
// "int const*", "void (*)(int)", "std::vector<int, std::allocator<int> >",
// "f<3ul>", "(anonymous namespace)".
#include "dwarf_names.h"

#include "demangle.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <dwarf.h>
#include <vector>

namespace memprof {

// Real DWARF nests a few dozen levels; broken or hostile DWARF may loop.
static const int kMaxDepth = 64;

static const char *
attr_string (Dwarf_Die *die, unsigned int at)
{
  Dwarf_Attribute attr;
  return dwarf_attr_integrate (die, at, &attr) ? dwarf_formstring (&attr)
                                               : nullptr;
}

static bool
attr_die (Dwarf_Die *die, unsigned int at, Dwarf_Die *result)
{
  Dwarf_Attribute attr;
  Dwarf_Die d;
  if (!dwarf_attr (die, at, &attr) || !dwarf_formref_die (&attr, &d))
    return false;
  *result = d;
  return true;
}

static bool
attr_flag (Dwarf_Die *die, unsigned int at)
{
  Dwarf_Attribute attr;
  bool v = false;
  return dwarf_attr_integrate (die, at, &attr) && dwarf_formflag (&attr, &v) == 0
         && v;
}

// The declaration DIE completes: through its abstract origin and its
// specification, as far as they go.  Its parent is the scope.
static Dwarf_Die
declaration (Dwarf_Die *die)
{
  Dwarf_Die d = *die;
  for (int i = 0; i < kMaxDepth; i++)
    if (!attr_die (&d, DW_AT_abstract_origin, &d)
        && !attr_die (&d, DW_AT_specification, &d))
      break;
  return d;
}

// The same for a class: from a type unit's stub to the type, from a
// class defined outside its scope to its declaration there.
static Dwarf_Die
class_declaration (Dwarf_Die *type)
{
  Dwarf_Die t = *type;
  attr_die (&t, DW_AT_signature, &t);
  return declaration (&t);
}

static bool
is_cxx (Dwarf_Die *die)
{
  Dwarf_Die cu;
  if (!dwarf_diecu (die, &cu, nullptr, nullptr))
    return false;
  switch (dwarf_srclang (&cu))
    {
    case DW_LANG_C_plus_plus:
    case DW_LANG_C_plus_plus_03:
    case DW_LANG_C_plus_plus_11:
    case DW_LANG_C_plus_plus_14:
      return true;
    default:
      return false;
    }
}

static bool
is_unit (int tag)
{
  return tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit
         || tag == DW_TAG_type_unit;
}

static bool
is_class (int tag)
{
  return tag == DW_TAG_class_type || tag == DW_TAG_structure_type
         || tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type;
}

static bool
is_template_param (int tag)
{
  return tag == DW_TAG_template_type_parameter
         || tag == DW_TAG_template_value_parameter
         || tag == DW_TAG_GNU_template_parameter_pack
         || tag == DW_TAG_GNU_template_template_param;
}

// NAME without the template arguments GCC printed into it
// ("make<double>", "operator< <int>").
static std::string
template_base (const char *name)
{
  const char *p = name;
  if (std::strncmp (p, "operator", 8) == 0)
    for (p += 8; *p && std::strchr ("<>=!+-*/%^&|~,()[] ", *p); p++)
      if (p[0] == ' ' && p[1] == '<')
        break;
  const char *lt = std::strchr (p, '<');
  std::string base (name, lt ? lt - name : std::strlen (name));
  while (!base.empty () && base.back () == ' ')
    base.pop_back ();
  return base;
}

// The top-level template arguments in NAME from BASE's end, as GCC
// spelled them ("int", "std::allocator<int>" for "vector<int,
// std::allocator<int> >"); false when they do not parse.
static bool
split_template_args (const char *name, size_t base, std::vector<std::string> &out)
{
  const char *p = name + base;
  while (*p == ' ')
    p++;
  if (*p != '<')
    return false;
  int depth = 0;
  std::string arg;
  for (p++; *p; p++)
    {
      if (depth == 0 && (*p == ',' || *p == '>'))
        {
          size_t b = arg.find_first_not_of (' ');
          if (b != std::string::npos)
            out.push_back (arg.substr (b, arg.find_last_not_of (' ') + 1 - b));
          else if (*p == ',' || !out.empty ())
            return false;
          arg.clear ();
          if (*p == '>')
            return p[1] == '\0';
          continue;
        }
      depth += std::strchr ("<([", *p) ? 1 : std::strchr (">)]", *p) ? -1 : 0;
      if (depth < 0)
        return false;
      arg += *p;
    }
  return false;
}

static bool
is_word_char (char c)
{
  return std::isalnum ((unsigned char) c) || c == '_';
}

// What GCC's and the demangler's spellings of one type share: its words
// and punctuation, sorted, without nested template arguments (GCC drops
// their defaults) or parameter lists (a local class's function is
// spelled with typedefs), literal suffixes ("3ul"), or the "int" of
// GCC's "long unsigned int".  Tells a partial specialization's parameter ("char
// const") from the argument ("char const*").
static std::vector<std::string>
spelling_shape (const std::string &s)
{
  std::vector<std::string> tokens;
  bool drop_int = false;
  int depth = 0;
  for (size_t i = 0; i < s.size (); i++)
    {
      char c = s[i];
      depth += c == '<' || c == '(' ? 1 : c == '>' || c == ')' ? -1 : 0;
      if (depth > 0 || std::strchr ("<>() ", c))
        continue;
      if (!is_word_char (c))
        {
          tokens.emplace_back (1, c);
          continue;
        }
      size_t j = i;
      while (j < s.size () && is_word_char (s[j]))
        j++;
      std::string w = s.substr (i, j - i);
      if (std::isdigit ((unsigned char) w[0]))
        w.erase (w.find_last_not_of ("ulUL") + 1);
      drop_int |= w == "long" || w == "short" || w == "unsigned"
                  || w == "signed";
      tokens.push_back (w);
      i = j - 1;
    }
  if (drop_int)
    tokens.erase (std::remove (tokens.begin (), tokens.end (), "int"),
                  tokens.end ());
  std::sort (tokens.begin (), tokens.end ());
  return tokens;
}

// The demangler's spelling of a DWARF base type GCC named NAME.
static std::string
base_type_name (const char *name)
{
  static const char *const map[][2] = {
    { "long int", "long" },
    { "long unsigned int", "unsigned long" },
    { "short int", "short" },
    { "short unsigned int", "unsigned short" },
    { "long long int", "long long" },
    { "long long unsigned int", "unsigned long long" },
    { "__int128 unsigned", "unsigned __int128" },
    { "complex float", "float _Complex" },
    { "complex double", "double _Complex" },
    { "complex long double", "long double _Complex" },
  };
  for (const auto &m : map)
    if (std::strcmp (name, m[0]) == 0)
      return m[1];
  return name;
}

// The mangler abbreviates these (Ss, Si, So, Sd), and the demangler
// prints the abbreviation.
static std::string
std_abbreviation (const std::string &name)
{
  static const char *const map[][2] = {
    { "std::basic_string<char, std::char_traits<char>, "
      "std::allocator<char> >", "std::string" },
    { "std::basic_istream<char, std::char_traits<char> >", "std::istream" },
    { "std::basic_ostream<char, std::char_traits<char> >", "std::ostream" },
    { "std::basic_iostream<char, std::char_traits<char> >", "std::iostream" },
  };
  for (const auto &m : map)
    if (name == m[0])
      return m[1];
  return name;
}

// NAME followed by the declarator DECL ("*", " const", "C::*").
static std::string
attach (const std::string &name, const std::string &decl)
{
  bool space = !decl.empty () && !std::strchr ("*& ", decl[0]);
  return name + (space ? " " : "") + decl;
}

// Whether TYPE's declarator nests the one it is given ("void (*(*)(int))
// (long)"): the type is, through pointers and references, a function or
// an array.
static bool
nests_declarator (Dwarf_Die *type)
{
  Dwarf_Die t = *type;
  for (int i = 0; i < kMaxDepth; i++)
    switch (dwarf_tag (&t))
      {
      case DW_TAG_subroutine_type:
      case DW_TAG_array_type:
        return true;
      case DW_TAG_typedef:
      case DW_TAG_const_type:
      case DW_TAG_volatile_type:
      case DW_TAG_restrict_type:
      case DW_TAG_pointer_type:
      case DW_TAG_reference_type:
      case DW_TAG_rvalue_reference_type:
      case DW_TAG_ptr_to_member_type:
        if (!attr_die (&t, DW_AT_type, &t))
          return false;
        break;
      default:
        return false;
      }
  return false;
}

// TYPE without typedefs and top-level qualifiers, which a parameter's
// type in a mangled name drops; false for void.
static bool
strip_top (Dwarf_Die *type)
{
  for (int i = 0; i < kMaxDepth; i++)
    switch (dwarf_tag (type))
      {
      case DW_TAG_typedef:
      case DW_TAG_const_type:
      case DW_TAG_volatile_type:
      case DW_TAG_restrict_type:
        if (!attr_die (type, DW_AT_type, type))
          return false;
        break;
      default:
        return true;
      }
  return false;
}

// The qualifiers (" const volatile") of the object a member function's
// `this' parameter PARAM points to.
static std::string
this_qualifiers (Dwarf_Die *param)
{
  Dwarf_Die t;
  if (!attr_die (param, DW_AT_type, &t) || !strip_top (&t)
      || !attr_die (&t, DW_AT_type, &t))
    return "";
  bool c = false, v = false;
  for (int i = 0; i < kMaxDepth; i++)
    {
      int tag = dwarf_tag (&t);
      c |= tag == DW_TAG_const_type;
      v |= tag == DW_TAG_volatile_type;
      if ((tag != DW_TAG_const_type && tag != DW_TAG_volatile_type
           && tag != DW_TAG_typedef)
          || !attr_die (&t, DW_AT_type, &t))
        break;
    }
  return std::string (c ? " const" : "") + (v ? " volatile" : "");
}

// The value of the template value parameter ARG, of the integer or
// enumeration type TYPE, into V; IS_SIGNED says how to read it.
static bool
const_value (Dwarf_Die *arg, Dwarf_Die *type, int64_t &v, bool &is_signed)
{
  Dwarf_Attribute attr, enc;
  if (!dwarf_attr (arg, DW_AT_const_value, &attr))
    return false;
  Dwarf_Die base = *type;
  if (dwarf_tag (&base) == DW_TAG_enumeration_type)
    attr_die (&base, DW_AT_type, &base);
  Dwarf_Word encoding = 0, u;
  if (dwarf_attr (&base, DW_AT_encoding, &enc))
    dwarf_formudata (&enc, &encoding);
  is_signed = encoding == DW_ATE_signed || encoding == DW_ATE_signed_char;
  int form = dwarf_whatform (&attr);
  if (form == DW_FORM_sdata || form == DW_FORM_implicit_const)
    return dwarf_formsdata (&attr, &v) == 0;
  if (dwarf_formudata (&attr, &u) != 0)
    return false;
  // A fixed-size form holds the value's bytes: sign-extend them.
  int size = dwarf_bytesize (&base);
  v = (int64_t) u;
  if (is_signed && size > 0 && size < 8)
    v = (int64_t) (u << (64 - 8 * size)) >> (64 - 8 * size);
  return true;
}

// A template value parameter's value as the demangler prints a literal
// of TYPE, named TYPE_NAME ("3", "3ul", "true", "(char)97").
static bool
literal (Dwarf_Die *arg, Dwarf_Die *type, const std::string &type_name,
         std::string &out)
{
  static const char *const suffixes[][2] = {
    { "int", "" }, { "unsigned int", "u" }, { "long", "l" },
    { "unsigned long", "ul" }, { "long long", "ll" },
    { "unsigned long long", "ull" },
  };
  int64_t v;
  bool is_signed;
  if (!const_value (arg, type, v, is_signed))
    return false;
  std::string digits = is_signed ? std::to_string (v)
                                 : std::to_string ((uint64_t) v);
  if (type_name == "bool")
    {
      out = v ? "true" : "false";
      return true;
    }
  for (const auto &s : suffixes)
    if (type_name == s[0])
      {
        out = digits + s[1];
        return true;
      }
  out = "(" + type_name + ")" + digits;
  return true;
}

const char *
FunctionNames::frame_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name = nullptr;
  if (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr))
    name = dwarf_formstring (&attr);
  if (!name && dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr))
    name = dwarf_formstring (&attr);
  if (name)
    return name;
  name = attr_string (die, DW_AT_name);
  // An extern "C" function's name is its symbol; C has no scopes.
  if (!name || attr_flag (die, DW_AT_external) || !is_cxx (die))
    return name;
  Dwarf_Die decl = declaration (die);
  auto it = frame_names_.find (decl.addr);
  if (it == frame_names_.end ())
    it = frame_names_.emplace (decl.addr, function_name (&decl, true, 0)).first;
  return it->second.empty () ? name : it->second.c_str ();
}

bool
FunctionNames::parent (Dwarf_Die *die, Dwarf_Die *result)
{
  Dwarf_Die unit;
  if (!dwarf_diecu (die, &unit, nullptr, nullptr))
    return false;
  index_unit (&unit);
  auto it = parents_.find (die->addr);
  if (it == parents_.end ())
    return false;
  *result = it->second;
  return true;
}

void
FunctionNames::index_unit (Dwarf_Die *unit)
{
  static const std::string top;
  if (indexed_units_.insert (unit->addr).second)
    index_scope (unit, *unit, &top, 0);
}

// Record SCOPE as the parent of DIE's children that may name a scope
// (the children of a lexical block belong to the block's scope), and
// index theirs.  SPELLED is SCOPE's qualification as GCC spells it in
// names ("std::", "ns::C<long unsigned int>::"), null inside a function:
// classes are indexed by their spelling too.
void
FunctionNames::index_scope (Dwarf_Die *die, const Dwarf_Die &scope,
                            const std::string *spelled, int level)
{
  if (level > 256)
    return;
  Dwarf_Die child;
  if (dwarf_child (die, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);
      bool names_scope = tag == DW_TAG_namespace || is_class (tag)
                         || tag == DW_TAG_subprogram;
      if (names_scope)
        parents_[child.addr] = scope;
      const char *name = attr_string (&child, DW_AT_name);
      std::string inner;
      if (spelled && (tag == DW_TAG_namespace || (is_class (tag) && name)))
        {
          inner = *spelled + (name ? name : "(anonymous namespace)");
          // The definition, which lists the template parameters.
          if (is_class (tag) && (!dwarf_hasattr (&child, DW_AT_declaration)
                                 || !by_spelling_.count (inner)))
            by_spelling_[inner] = child;
          inner += "::";
        }
      if (tag == DW_TAG_typedef && name)
        name_by_typedef (&child, name, scope, spelled);
      const std::string *next = inner.empty () ? nullptr : &inner;
      if (tag == DW_TAG_lexical_block)
        index_scope (&child, scope, nullptr, level + 1);
      else if (names_scope && tag != DW_TAG_enumeration_type)
        index_scope (&child, child, next, level + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

// An unnamed class that the typedef DIE named NAME, of SCOPE, stands for
// is known by that name when it is of that scope too ("typedef struct
// { ... } Dwarf_Die;"), as the demangler prints it (not by a member
// typedef of some template, std::remove_reference<T>::type).
void
FunctionNames::name_by_typedef (Dwarf_Die *die, const char *name,
                                const Dwarf_Die &scope,
                                const std::string *spelled)
{
  Dwarf_Die type;
  if (!attr_die (die, DW_AT_type, &type) || !is_class (dwarf_tag (&type))
      || dwarf_hasattr (&type, DW_AT_name))
    return;
  auto it = parents_.find (type.addr);
  if (it == parents_.end () || it->second.addr != scope.addr)
    return;
  typedef_names_.emplace (type.addr, name);
  if (spelled)
    by_spelling_.emplace (*spelled + name, type);
}

// The qualification SCOPE gives what it holds: "" for a unit,
// "ns::(anonymous namespace)::C::" or "f(int)::" otherwise.
bool
FunctionNames::scope_prefix (Dwarf_Die *scope, std::string &out, int depth)
{
  if (is_unit (dwarf_tag (scope)))
    {
      out.clear ();
      return true;
    }
  auto it = prefixes_.find (scope->addr);
  if (it == prefixes_.end ())
    {
      Dwarf_Die up;
      std::string outer, name;
      bool ok = depth < kMaxDepth && parent (scope, &up)
                && scope_prefix (&up, outer, depth + 1)
                && scope_name (scope, name, depth + 1);
      it = prefixes_.emplace (scope->addr,
                              std::make_pair (ok, std_abbreviation (outer + name)
                                                    + "::"))
             .first;
    }
  out = it->second.second;
  return it->second.first;
}

bool
FunctionNames::scope_name (Dwarf_Die *scope, std::string &out, int depth)
{
  switch (dwarf_tag (scope))
    {
    case DW_TAG_namespace:
      {
        const char *name = attr_string (scope, DW_AT_name);
        out = name ? name : "(anonymous namespace)";
        return true;
      }
    case DW_TAG_subprogram:
      {
        // A local class: the demangler names its function without the
        // return type ("f<int>()::Local").
        Dwarf_Die decl = declaration (scope);
        out = function_name (&decl, false, depth);
        return !out.empty ();
      }
    default:
      return class_name (scope, out, depth);
    }
}

static bool
is_conversion (const std::string &name)
{
  return name.compare (0, 9, "operator ") == 0
         && name.compare (9, 3, "new") != 0
         && name.compare (9, 6, "delete") != 0 && name[9] != '"';
}

// Whether the demangler prints a return type before the name NAME of a
// function template in SCOPE: not for constructors, destructors and
// conversion operators.
static bool
prints_return_type (const std::string &name, Dwarf_Die *scope)
{
  if (name.empty () || name[0] == '~' || is_conversion (name))
    return false;
  const char *cls = is_class (dwarf_tag (scope))
                      ? attr_string (scope, DW_AT_name) : nullptr;
  return !cls || template_base (cls) != name;
}

// DECL's name: scopes, name, template arguments, parameters and
// qualifiers, and for a function template with WITH_RETURN its return
// type first; without the parameters when a type cannot be named; ""
// when a scope cannot.
std::string
FunctionNames::function_name (Dwarf_Die *decl, bool with_return, int depth)
{
  const char *name = attr_string (decl, DW_AT_name);
  Dwarf_Die scope, ret;
  std::string prefix;
  if (!name || !parent (decl, &scope)
      || !scope_prefix (&scope, prefix, depth + 1))
    return "";
  std::string base = template_base (name), args, sig;
  bool is_template = base.size () != std::strlen (name);
  if (base == "operator new []" || base == "operator delete []")
    base.erase (base.size () - 3, 1);
  bool has_ret = attr_die (decl, DW_AT_type, &ret);
  if (is_conversion (name))
    {
      // GCC names a conversion by the type as written ("operator
      // value_type"), the demangler by the type.
      std::string type;
      if (!has_ret || !type_name (&ret, "", type, depth + 1))
        return prefix + name;
      base = "operator " + type;
      is_template = false;
    }
  else if (is_template && !template_args (decl, name, args, depth + 1))
    return prefix + name;
  if (!signature (decl, sig, depth + 1))
    return prefix + base + args;
  if (!is_template && has_ret)
    base += abi_tag (&ret, prefix + sig, depth);
  if (base.back () == '<' && !args.empty ())
    base += ' ';                // "operator< <int>"
  std::string full = prefix + base + args + sig, out;
  if (!with_return || !is_template || !prints_return_type (base, &scope))
    return full;
  if (!returning (has_ret ? &ret : nullptr, full, out, depth + 1))
    return prefix + base + args;
  return out;
}

// FULL, a function template's name, after its return type RET (null:
// void), as in "double* ns::make<double>(int)".
bool
FunctionNames::returning (Dwarf_Die *ret, const std::string &full,
                          std::string &out, int depth)
{
  if (!ret)
    {
      out = "void " + full;
      return true;
    }
  return type_name (ret, nests_declarator (ret) ? full : " " + full, out,
                    depth);
}

// The ABI tag GCC adds to a function's mangled name ("[abi:cxx11]") when
// its return type RET has one that its name and parameters, SIGNATURE,
// lack: a type of libstdc++'s inline namespace __cxx11 (std::string),
// whose namespace carries the tag.
std::string
FunctionNames::abi_tag (Dwarf_Die *ret, const std::string &signature,
                        int depth)
{
  std::string type;
  if (!type_name (ret, "", type, depth + 1)
      || type.find ("std::__cxx11::") == std::string::npos
      || signature.find ("std::__cxx11::") != std::string::npos)
    return "";
  return "[abi:cxx11]";
}

// "(int, char const*) const &": the parameters and qualifiers.
bool
FunctionNames::signature (Dwarf_Die *decl, std::string &out, int depth)
{
  std::string params, cv;
  if (!parameters (decl, params, cv, depth))
    return false;
  out = "(" + params + ")" + cv;
  if (attr_flag (decl, DW_AT_reference))
    out += " &";
  else if (attr_flag (decl, DW_AT_rvalue_reference))
    out += " &&";
  return true;
}

// DIE's parameter types, ", "-separated into OUT (a pack's expanded);
// the qualifiers of a member function's object into CV.
bool
FunctionNames::parameters (Dwarf_Die *die, std::string &out, std::string &cv,
                           int depth)
{
  Dwarf_Die child;
  if (depth > kMaxDepth || dwarf_child (die, &child) != 0)
    return depth <= kMaxDepth;
  do
    {
      std::string t;
      switch (dwarf_tag (&child))
        {
        case DW_TAG_formal_parameter:
          {
            if (attr_flag (&child, DW_AT_artificial))
              {
                cv = this_qualifiers (&child);
                continue;
              }
            Dwarf_Die type;
            if (!attr_die (&child, DW_AT_type, &type) || !strip_top (&type)
                || !type_name (&type, "", t, depth + 1))
              return false;
            break;
          }
        case DW_TAG_GNU_formal_parameter_pack:
          if (!parameters (&child, t, cv, depth + 1))
            return false;
          break;
        case DW_TAG_unspecified_parameters:
          t = "...";
          break;
        default:
          continue;
        }
      if (!t.empty ())
        out += (out.empty () ? "" : ", ") + t;
    }
  while (dwarf_siblingof (&child, &child) == 0);
  return true;
}

// "<int, 3ul>": the template arguments of DIE, which GCC named NAME.
// Those of DWARF's template parameters whose spelling has the shape of
// an argument of NAME stand for it, in order; the others (GCC leaves out
// parameters the template's declaration does not name, and gives a
// partial specialization's) are respelled from NAME's, or kept as GCC
// spelled them, which may differ from the demangler's in details
// ("basic_string<char>" for "basic_string<char, std::char_traits<char>,
// std::allocator<char> >", "3" for "3ul").  False when NAME's arguments
// do not parse.
bool
FunctionNames::template_args (Dwarf_Die *die, const char *name,
                              std::string &out, int depth)
{
  std::vector<std::string> spelled, params;
  if (!split_template_args (name, template_base (name).size (), spelled))
    return false;
  if (!dwarf_template_args (die, params, depth))
    params.clear ();
  std::string list;
  size_t next = 0;
  for (const std::string &arg : spelled)
    {
      std::string a = arg;
      if (next < params.size ()
          && spelling_shape (params[next]) == spelling_shape (arg))
        a = params[next++];
      else
        respell (arg, a, depth + 1);
      list += (list.empty () ? "" : ", ") + a;
    }
  out = "<" + list + (!list.empty () && list.back () == '>' ? " >" : ">");
  return true;
}

// Whether every word of NAME names a base type ("long unsigned int").
static bool
is_base_type_spelling (const std::string &name)
{
  static const char *const words[] = {
    "unsigned", "signed", "long", "short", "int", "char", "bool", "float",
    "double", "wchar_t", "char8_t", "char16_t", "char32_t", "__int128",
    "void",
  };
  size_t i = 0;
  while (i < name.size ())
    {
      size_t j = name.find (' ', i);
      std::string w = name.substr (i, j == std::string::npos ? j : j - i);
      if (std::find_if (std::begin (words), std::end (words),
                        [&w] (const char *k) { return w == k; })
          == std::end (words))
        return false;
      i = j == std::string::npos ? name.size () : j + 1;
    }
  return !name.empty ();
}

// Remove a leading or trailing qualifier Q ("const") from NAME.
static bool
take_qualifier (std::string &name, const std::string &q)
{
  if (name.compare (0, q.size () + 1, q + " ") == 0)
    name.erase (0, q.size () + 1);
  else if (name.size () > q.size ()
           && name.compare (name.size () - q.size () - 1, std::string::npos,
                            " " + q) == 0)
    name.erase (name.size () - q.size () - 1);
  else
    return false;
  return true;
}

// The demangler's spelling of a template argument that GCC spelled
// SPELLED and DWARF does not give: a class (by the DIE of that
// spelling), a base type, either qualified or behind pointers and
// references ("const std::pair<long unsigned int, int>*" -> "std::pair<
// unsigned long, int> const*").  False for anything else.
bool
FunctionNames::respell (const std::string &spelled, std::string &out,
                        int depth)
{
  // The type's name ends where its pointers and references start.
  size_t end = 0;
  for (int nest = 0; end < spelled.size (); end++)
    {
      char c = spelled[end];
      nest += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (nest == 0 && (c == '*' || c == '&'))
        break;
    }
  std::string name = spelled.substr (0, end), decl = spelled.substr (end);
  bool c = false, v = false;
  for (bool more = true; more;)
    {
      bool tc = take_qualifier (name, "const");
      bool tv = take_qualifier (name, "volatile");
      c |= tc, v |= tv;
      more = tc || tv;
    }
  if (decl.find_first_not_of ("*& constvolatile") != std::string::npos
      || depth > kMaxDepth)
    return false;
  std::string type;
  auto it = by_spelling_.find (name);
  if (is_base_type_spelling (name))
    type = base_type_name (name.c_str ());
  else if (it == by_spelling_.end ()
           || !named_type (&it->second, type, depth + 1))
    return false;
  out = type + (c ? " const" : "") + (v ? " volatile" : "") + decl;
  return true;
}

// DIE's template parameters, a pack's expanded, as the demangler prints
// their arguments.
bool
FunctionNames::dwarf_template_args (Dwarf_Die *die,
                                    std::vector<std::string> &out, int depth)
{
  std::vector<Dwarf_Die> params;
  Dwarf_Die child;
  if (dwarf_child (die, &child) == 0)
    do
      {
        int tag = dwarf_tag (&child);
        Dwarf_Die member;
        if (tag == DW_TAG_GNU_template_parameter_pack)
          {
            if (dwarf_child (&child, &member) == 0)
              do
                params.push_back (member);
              while (dwarf_siblingof (&member, &member) == 0);
          }
        else if (is_template_param (tag))
          params.push_back (child);
      }
    while (dwarf_siblingof (&child, &child) == 0);
  if (params.empty ())
    return allocator_value_type (die, out, depth);
  for (Dwarf_Die &p : params)
    {
      std::string s;
      if (!template_arg (&p, s, depth + 1))
        return false;
      out.push_back (s);
    }
  return true;
}

// std::allocator's parameter is unnamed in its first declaration, so
// GCC gives no template parameter for it, and every container's element
// type goes through it: its base class (std::__new_allocator<T>) has
// the argument.
bool
FunctionNames::allocator_value_type (Dwarf_Die *die,
                                     std::vector<std::string> &out, int depth)
{
  Dwarf_Die scope, child, base;
  const char *name = attr_string (die, DW_AT_name);
  const char *ns;
  if (!name || std::strncmp (name, "allocator<", 10) != 0
      || !parent (die, &scope) || dwarf_tag (&scope) != DW_TAG_namespace
      || !(ns = attr_string (&scope, DW_AT_name)) || std::strcmp (ns, "std")
      || dwarf_child (die, &child) != 0)
    return true;
  do
    if (dwarf_tag (&child) == DW_TAG_inheritance)
      {
        std::vector<std::string> args;
        if (attr_die (&child, DW_AT_type, &base)
            && dwarf_template_args (&base, args, depth + 1)
            && args.size () == 1)
          out = args;
        break;
      }
  while (dwarf_siblingof (&child, &child) == 0);
  return true;
}

bool
FunctionNames::template_arg (Dwarf_Die *arg, std::string &out, int depth)
{
  Dwarf_Die type;
  bool typed = attr_die (arg, DW_AT_type, &type);
  switch (dwarf_tag (arg))
    {
    case DW_TAG_template_type_parameter:
      if (!typed)
        out = "void";
      return !typed || type_name (&type, "", out, depth);
    case DW_TAG_template_value_parameter:
      {
        std::string tn;
        return typed && strip_top (&type) && type_name (&type, "", tn, depth)
               && literal (arg, &type, tn, out);
      }
    default:
      return false;
    }
}

// TYPE as the demangler prints it around the declarator DECL.
bool
FunctionNames::type_name (Dwarf_Die *type, const std::string &decl,
                          std::string &out, int depth)
{
  if (depth > kMaxDepth)
    return false;
  int tag = dwarf_tag (type);
  Dwarf_Die inner;
  bool has_inner = attr_die (type, DW_AT_type, &inner);
  std::string d;
  switch (tag)
    {
    case DW_TAG_typedef:
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_restrict_type:
      return qualified_type (type, decl, out, depth);
    case DW_TAG_pointer_type:
      d = "*" + decl;
      break;
    case DW_TAG_reference_type:
      d = "&" + decl;
      break;
    case DW_TAG_rvalue_reference_type:
      d = "&&" + decl;
      break;
    case DW_TAG_subroutine_type:
      return function_type (type, decl, out, depth);
    case DW_TAG_array_type:
      return array_type (type, decl, out, depth);
    case DW_TAG_ptr_to_member_type:
      return member_pointer (type, decl, out, depth);
    default:
      {
        std::string name;
        if (!named_type (type, name, depth))
          return false;
        out = attach (name, decl);
        return true;
      }
    }
  if (!has_inner)
    {
      out = attach ("void", d);
      return true;
    }
  return type_name (&inner, d, out, depth + 1);
}

// TYPE, a typedef or a qualifier, around DECL: typedefs followed (a
// mangled name has the type), qualifiers in the order the demangler
// prints them whatever their nesting ("int const volatile").
bool
FunctionNames::qualified_type (Dwarf_Die *type, const std::string &decl,
                               std::string &out, int depth)
{
  bool c = false, v = false, r = false, is_void = false;
  Dwarf_Die t = *type;
  for (int i = 0; i < kMaxDepth; i++)
    {
      int tag = dwarf_tag (&t);
      if (tag != DW_TAG_typedef && tag != DW_TAG_const_type
          && tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type)
        break;
      c |= tag == DW_TAG_const_type;
      v |= tag == DW_TAG_volatile_type;
      r |= tag == DW_TAG_restrict_type;
      if ((is_void = !attr_die (&t, DW_AT_type, &t)))
        break;
    }
  std::string d = std::string (c ? " const" : "") + (v ? " volatile" : "")
                  + (r ? " restrict" : "") + decl;
  if (is_void)
    {
      out = attach ("void", d);
      return true;
    }
  return type_name (&t, d, out, depth + 1);
}

// "void (*)(int)": the return type around "(DECL)(parameters)".
bool
FunctionNames::function_type (Dwarf_Die *type, const std::string &decl,
                              std::string &out, int depth)
{
  std::string params, cv;
  if (!parameters (type, params, cv, depth + 1))
    return false;
  std::string d = (decl.empty () ? "" : "(" + decl + ")") + "(" + params
                  + ")" + cv;
  Dwarf_Die ret;
  if (!attr_die (type, DW_AT_type, &ret))
    {
      out = "void " + d;
      return true;
    }
  return type_name (&ret, nests_declarator (&ret) ? d : " " + d, out,
                    depth + 1);
}

// "int (&) [3][4]".
bool
FunctionNames::array_type (Dwarf_Die *type, const std::string &decl,
                           std::string &out, int depth)
{
  std::string d = decl.empty () ? "" : "(" + decl + ") ";
  Dwarf_Die sub;
  if (dwarf_child (type, &sub) == 0)
    do
      {
        if (dwarf_tag (&sub) != DW_TAG_subrange_type)
          continue;
        Dwarf_Attribute attr;
        Dwarf_Word n;
        if (dwarf_attr (&sub, DW_AT_count, &attr)
            && dwarf_formudata (&attr, &n) == 0)
          d += "[" + std::to_string (n) + "]";
        else if (dwarf_attr (&sub, DW_AT_upper_bound, &attr)
                 && dwarf_formudata (&attr, &n) == 0)
          d += "[" + std::to_string (n + 1) + "]";
        else
          d += "[]";
      }
    while (dwarf_siblingof (&sub, &sub) == 0);
  Dwarf_Die elem;
  if (!attr_die (type, DW_AT_type, &elem))
    return false;
  return type_name (&elem, nests_declarator (&elem) ? d : " " + d, out,
                    depth + 1);
}

// "int C::*", "void (C::*)(int) const".
bool
FunctionNames::member_pointer (Dwarf_Die *type, const std::string &decl,
                               std::string &out, int depth)
{
  Dwarf_Die cls, member;
  std::string cname;
  if (!attr_die (type, DW_AT_containing_type, &cls)
      || !attr_die (type, DW_AT_type, &member)
      || !type_name (&cls, "", cname, depth + 1))
    return false;
  bool function = dwarf_tag (&member) == DW_TAG_subroutine_type;
  return type_name (&member, (function ? "" : " ") + cname + "::*" + decl,
                    out, depth + 1);
}

// A base type's, a class's, an enumeration's name with its scopes and
// template arguments.
bool
FunctionNames::named_type (Dwarf_Die *type, std::string &out, int depth)
{
  int tag = dwarf_tag (type);
  if (tag == DW_TAG_base_type || tag == DW_TAG_unspecified_type)
    {
      const char *name = attr_string (type, DW_AT_name);
      if (name)
        out = tag == DW_TAG_base_type ? base_type_name (name) : name;
      return name != nullptr;
    }
  if (!is_class (tag))
    return false;
  Dwarf_Die decl = class_declaration (type), scope;
  std::string prefix, name;
  if (!class_name (type, name, depth) || !parent (&decl, &scope)
      || !scope_prefix (&scope, prefix, depth + 1))
    return false;
  out = std_abbreviation (prefix + name);
  return true;
}

// A class's or an enumeration's name, without its scopes, with its
// template arguments; false for an unnamed one (a lambda's closure).
bool
FunctionNames::class_name (Dwarf_Die *type, std::string &out, int depth)
{
  if (depth > kMaxDepth)
    return false;
  Dwarf_Die t = *type;
  attr_die (&t, DW_AT_signature, &t);
  Dwarf_Die decl = class_declaration (type), unit;
  const char *name = attr_string (&decl, DW_AT_name);
  if (!name && dwarf_diecu (&decl, &unit, nullptr, nullptr))
    {
      index_unit (&unit);
      auto it = typedef_names_.find (decl.addr);
      name = it == typedef_names_.end () ? nullptr : it->second;
    }
  if (!name)
    return false;
  // GCC's name for the va_list record.
  if (std::strncmp (name, "typedef ", 8) == 0)
    name = std::strrchr (name, ' ') + 1;
  std::string base = template_base (name), args;
  if (base.size () == std::strlen (name))
    {
      out = name;
      return true;
    }
  // The definition lists the template parameters, a declaration may not.
  Dwarf_Die *params = dwarf_hasattr (&t, DW_AT_declaration) ? &decl : &t;
  out = template_args (params, name, args, depth + 1) ? base + args : name;
  return true;
}

} // namespace memprof
