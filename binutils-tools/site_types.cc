// Parsing and lookup of the allocation-site type table.
#include "site_types.h"

#include "demangle.h"
#include "memprof/type_table.h"

#include <cstdlib>
#include <cstring>

namespace memprof {

std::string
function_base_name (const std::string &name)
{
  size_t dot = name.find ('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr (0, dot);
}

std::string
normalize_path (const std::string &path)
{
  std::vector<std::string> parts;
  size_t start = 0;
  bool absolute = !path.empty () && path[0] == '/';
  while (start <= path.size ())
    {
      size_t slash = path.find ('/', start);
      if (slash == std::string::npos)
        slash = path.size ();
      std::string part = path.substr (start, slash - start);
      if (part == "..")
        {
          if (!parts.empty () && parts.back () != "..")
            parts.pop_back ();
          else if (!absolute)
            parts.push_back (part);
        }
      else if (!part.empty () && part != ".")
        parts.push_back (part);
      start = slash + 1;
    }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < parts.size (); i++)
    out += (i ? "/" : "") + parts[i];
  return out;
}

static std::string
base_name (const std::string &path)
{
  size_t slash = path.rfind ('/');
  return slash == std::string::npos ? path : path.substr (slash + 1);
}

static std::string
position_key (const std::string &file, uint64_t line, uint64_t column)
{
  return base_name (file) + ':' + std::to_string (line) + ':'
         + std::to_string (column);
}

static bool
parse_number (const std::string &s, uint64_t &v)
{
  if (s.empty () || s.size () > 19)
    return false;
  v = 0;
  for (char c : s)
    {
      if (c < '0' || c > '9')
        return false;
      v = v * 10 + (c - '0');
    }
  return true;
}

// The function and file of a record whose strings start at R (its tag).
static SiteType
site_at (const std::string *r)
{
  SiteType t;
  t.function = function_base_name (r[1]);
  if (t.function.compare (0, 2, "_Z") == 0)
    t.demangled = demangle (t.function);
  t.file = normalize_path (r[2]);
  return t;
}

void
SiteTypes::parse (const char *data, size_t size)
{
  // The strings of the section, in order.
  std::vector<std::string> strings;
  size_t i = 0;
  while (i < size)
    {
      const void *nul = std::memchr (data + i, 0, size - i);
      size_t end = nul ? (const char *) nul - data : size;
      strings.emplace_back (data + i, end - i);
      i = end + 1;
    }
  for (size_t k = 0; k < strings.size ();)
    {
      if (strings[k] == MEMPROF_TYPE_OFFSET_TAG
          && k + MEMPROF_TYPE_OFFSET_FIELDS <= strings.size ())
        {
          const std::string *r = &strings[k];
          uint64_t line, column, bytes;
          if (parse_number (r[3], line) && parse_number (r[4], column)
              && parse_number (r[5], bytes) && bytes)
            {
              SiteType t = site_at (r);
              t.size = bytes;
              offsets_[position_key (t.file, line, column)].push_back (t);
              k += MEMPROF_TYPE_OFFSET_FIELDS;
            }
          else
            k++;
          continue;
        }
      if (strings[k] != MEMPROF_TYPE_RECORD_TAG)
        {
          k++;              // Padding, or a record of another version.
          continue;
        }
      if (k + MEMPROF_TYPE_RECORD_FIELDS > strings.size ())
        break;
      const std::string *r = &strings[k];
      uint64_t line, column, tsize;
      if (parse_number (r[3], line) && parse_number (r[4], column)
          && parse_number (r[6], tsize))
        {
          SiteType t = site_at (r);
          t.name = r[5];
          t.size = t.name.empty () ? 0 : tsize;
          k += MEMPROF_TYPE_RECORD_FIELDS;
          // Its prefix record, if the plugin wrote one: the same site.
          if (k + MEMPROF_TYPE_PREFIX_FIELDS <= strings.size ()
              && strings[k] == MEMPROF_TYPE_PREFIX_TAG
              && strings[k + 1] == r[1] && strings[k + 2] == r[2]
              && strings[k + 3] == r[3] && strings[k + 4] == r[4])
            {
              t.prefix = !t.name.empty ();
              k += MEMPROF_TYPE_PREFIX_FIELDS;
            }
          by_position_[position_key (t.file, line, column)].push_back (t);
          num_records_++;
        }
      else
        k++;
    }
}

std::vector<const SiteType *>
SiteTypes::candidates (const std::vector<SiteType> &all, const Frame &f)
{
  // The symbolizer names a function without a linkage name (internal
  // linkage) from its scopes, as its mangled name demangles.
  bool scoped = f.function.compare (0, 2, "_Z") != 0
                && f.function.find_first_of (":(") != std::string::npos;
  std::string fn = scoped ? f.function : function_base_name (f.function);
  auto name = [scoped] (const SiteType &t) -> const std::string & {
    return scoped ? t.demangled : t.function;
  };
  std::string file = normalize_path (f.file);
  // The candidates of F's function (and file, when that tells apart).
  std::vector<const SiteType *> chosen;
  for (const SiteType &t : all)
    if (name (t) == fn && t.file == file)
      chosen.push_back (&t);
  if (chosen.empty ())
    for (const SiteType &t : all)
      if (name (t) == fn)
        chosen.push_back (&t);
  if (chosen.empty ())
    for (const SiteType &t : all)
      chosen.push_back (&t);
  return chosen;
}

const SiteType *
SiteTypes::lookup (const Frame &f) const
{
  if (f.function.empty () || by_position_.empty ())
    return nullptr;
  auto it = by_position_.find (position_key (f.file, f.line, f.column));
  if (it == by_position_.end ())
    return nullptr;
  std::vector<const SiteType *> chosen = candidates (it->second, f);
  for (const SiteType *t : chosen)
    if (t->name != chosen[0]->name || t->size != chosen[0]->size)
      return &unknown_;
  // A header only if every candidate says so.
  for (const SiteType *t : chosen)
    if (!t->prefix)
      return t;
  return chosen[0];
}

uint64_t
SiteTypes::header_bytes (const Frame &f) const
{
  if (f.function.empty () || offsets_.empty ())
    return 0;
  auto it = offsets_.find (position_key (f.file, f.line, f.column));
  if (it == offsets_.end ())
    return 0;
  std::vector<const SiteType *> chosen = candidates (it->second, f);
  for (const SiteType *t : chosen)
    if (t->size != chosen[0]->size)
      return 0;
  return chosen[0]->size;
}

} // namespace memprof
