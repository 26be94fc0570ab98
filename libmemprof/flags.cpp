// Parsing MEMPROF_OPTIONS into the flags of flags.inc.

#include "flags.h"
#include "internal.h"

namespace memprof {

Flags flags;

namespace {

enum class Kind { Bool, Int, String };

struct FlagInfo
{
  const char *name;
  Kind kind;
  const char *description;
  void *storage;
};

const FlagInfo flag_table[] = {
#define MEMPROF_FLAG(TYPE, NAME, DEFAULT, DESC) \
  { #NAME, Kind::TYPE, DESC, (void *) &flags.NAME },
#include "flags.inc"
#undef MEMPROF_FLAG
};

void
set_defaults ()
{
#define MEMPROF_FLAG_SET_Bool(NAME, DEFAULT) flags.NAME = DEFAULT;
#define MEMPROF_FLAG_SET_Int(NAME, DEFAULT) flags.NAME = DEFAULT;
#define MEMPROF_FLAG_SET_String(NAME, DEFAULT) \
  internal_memcpy (flags.NAME, DEFAULT, sizeof (DEFAULT));
#define MEMPROF_FLAG(TYPE, NAME, DEFAULT, DESC) \
  MEMPROF_FLAG_SET_##TYPE (NAME, DEFAULT)
#include "flags.inc"
#undef MEMPROF_FLAG
}

bool
parse_bool (const char *v, size_t n, bool *out)
{
  struct { const char *s; bool b; } words[] = {
    { "1", true }, { "true", true }, { "yes", true },
    { "0", false }, { "false", false }, { "no", false } };
  for (auto &w : words)
    if (internal_strlen (w.s) == n && internal_strncmp (w.s, v, n) == 0)
      {
        *out = w.b;
        return true;
      }
  return false;
}

bool
parse_int (const char *v, size_t n, int *out)
{
  bool neg = n && *v == '-';
  size_t i = neg ? 1 : 0;
  if (i == n)
    return false;
  long long r = 0;
  for (; i < n; i++)
    {
      if (v[i] < '0' || v[i] > '9' || r > 100000000)
        return false;
      r = r * 10 + (v[i] - '0');
    }
  *out = (int) (neg ? -r : r);
  return true;
}

void
apply (const char *name, size_t name_len, const char *value, size_t len)
{
  for (const FlagInfo &f : flag_table)
    {
      if (internal_strlen (f.name) != name_len
          || internal_strncmp (f.name, name, name_len) != 0)
        continue;
      bool ok = false;
      switch (f.kind)
        {
        case Kind::Bool:
          ok = parse_bool (value, len, (bool *) f.storage);
          break;
        case Kind::Int:
          ok = parse_int (value, len, (int *) f.storage);
          break;
        case Kind::String:
          ok = len < 1024;
          if (ok)
            {
              internal_memcpy (f.storage, value, len);
              ((char *) f.storage)[len] = 0;
            }
          break;
        }
      if (!ok)
        {
          char buf[128];
          size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
          internal_memcpy (buf, value, n);
          buf[n] = 0;
          report ("memprof: MEMPROF_OPTIONS: bad value '%s' for %s", buf,
                  f.name);
        }
      return;
    }
  char buf[128];
  size_t n = name_len < sizeof buf - 1 ? name_len : sizeof buf - 1;
  internal_memcpy (buf, name, n);
  buf[n] = 0;
  report ("memprof: MEMPROF_OPTIONS: unknown option '%s' (try help=1)", buf);
}

} // namespace

void
parse_flags (const char *options)
{
  set_defaults ();
  if (!options)
    return;
  const char *p = options;
  while (*p)
    {
      while (*p == ':' || *p == ' ' || *p == '\t' || *p == '\n')
        p++;
      if (!*p)
        break;
      const char *name = p;
      while (*p && *p != '=' && *p != ':' && *p != ' ')
        p++;
      size_t name_len = p - name;
      const char *value = "1";
      size_t value_len = 1;
      if (*p == '=')
        {
          value = ++p;
          while (*p && *p != ':' && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
          value_len = p - value;
        }
      apply (name, name_len, value, value_len);
    }
  if (flags.stack_depth < 1)
    flags.stack_depth = 1;
  if (flags.stack_depth > 256)
    flags.stack_depth = 256;
}

void
print_flags_help ()
{
  report ("memprof: options (MEMPROF_OPTIONS=name=value:name=value...):");
  for (const FlagInfo &f : flag_table)
    {
      char value[1100];
      switch (f.kind)
        {
        case Kind::Bool:
          format (value, sizeof value, "%d", *(bool *) f.storage ? 1 : 0);
          break;
        case Kind::Int:
          format (value, sizeof value, "%d", *(int *) f.storage);
          break;
        case Kind::String:
          format (value, sizeof value, "\"%s\"", (char *) f.storage);
          break;
        }
      report ("  %s=%s\t%s", f.name, value, f.description);
    }
}

} // namespace memprof
