// Parsing MEMPROF_OPTIONS into the flags of flags.inc.

#include "flags.h"
#include "internal.h"
#include "runtime.h"

namespace memprof {

Flags flags;

namespace {

enum class Kind { Bool, Int, String, Name, Signal };

struct FlagInfo
{
  const char *name;
  Kind kind;
  const char *description;
  void *storage;
  int min, max;              // Values (Int, Bool) or lengths (the others).
  int default_number;        // Bool, Int.
  const char *default_text;  // String, Name, Signal.
};

#define MEMPROF_FLAG_DEFAULT_Bool(D) (D), nullptr
#define MEMPROF_FLAG_DEFAULT_Int(D) (D), nullptr
#define MEMPROF_FLAG_DEFAULT_String(D) 0, (D)
#define MEMPROF_FLAG_DEFAULT_Name(D) 0, (D)
#define MEMPROF_FLAG_DEFAULT_Signal(D) 0, (D)
const FlagInfo flag_table[] = {
#define MEMPROF_FLAG(TYPE, NAME, DEFAULT, MIN, MAX, DESC)                   \
  { #NAME, Kind::TYPE, DESC, (void *) &flags.NAME, MIN, MAX,                \
    MEMPROF_FLAG_DEFAULT_##TYPE (DEFAULT) },
#include "flags.inc"
#undef MEMPROF_FLAG
};

// Every text flag's bounds fit its 1024-byte storage; every default is
// accepted (checked at compile time, so the table cannot drift).
#define MEMPROF_FLAG_CHECK_Bool(NAME, D, MIN, MAX) \
  static_assert (MIN == 0 && MAX == 1, #NAME ": Bool takes 0, 1");
#define MEMPROF_FLAG_CHECK_Int(NAME, D, MIN, MAX) \
  static_assert (MIN <= (D) && (D) <= MAX, #NAME ": default out of range");
#define MEMPROF_FLAG_CHECK_String(NAME, D, MIN, MAX)                      \
  static_assert (0 <= MIN && MIN <= (int) sizeof (D) - 1                  \
                   && (int) sizeof (D) - 1 <= MAX && MAX <= 1023,         \
                 #NAME ": bad length bounds");
#define MEMPROF_FLAG_CHECK_Name MEMPROF_FLAG_CHECK_String
#define MEMPROF_FLAG_CHECK_Signal MEMPROF_FLAG_CHECK_String
#define MEMPROF_FLAG(TYPE, NAME, DEFAULT, MIN, MAX, DESC) \
  MEMPROF_FLAG_CHECK_##TYPE (NAME, DEFAULT, MIN, MAX)
#include "flags.inc"
#undef MEMPROF_FLAG

void
set_default (const FlagInfo &f)
{
  switch (f.kind)
    {
    case Kind::Bool:
      *(bool *) f.storage = f.default_number != 0;
      break;
    case Kind::Int:
      *(int *) f.storage = f.default_number;
      break;
    case Kind::String:
    case Kind::Name:
    case Kind::Signal:
      internal_memcpy (f.storage, f.default_text,
                       internal_strlen (f.default_text) + 1);
      break;
    }
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

// A decimal number in [MIN, MAX], nothing before or after it.
bool
parse_int (const char *v, size_t n, int min, int max, int *out)
{
  bool neg = n && *v == '-';
  size_t i = neg ? 1 : 0;
  if (i == n)
    return false;
  long long r = 0;
  for (; i < n; i++)
    {
      if (v[i] < '0' || v[i] > '9' || r > 1000000000)
        return false;
      r = r * 10 + (v[i] - '0');
    }
  if (neg)
    r = -r;
  if (r < min || r > max)
    return false;
  *out = (int) r;
  return true;
}

// A pattern that expands to a usable file name in the profile directory.
bool
usable_name_pattern (const char *v, size_t n)
{
  if ((n == 1 && v[0] == '.') || (n == 2 && v[0] == '.' && v[1] == '.'))
    return false;
  for (size_t i = 0; i < n; i++)
    {
      if (v[i] == '/')
        return false;
      if (v[i] == '%')
        {
          if (i + 1 == n)
            return false;
          char c = v[++i];
          if (c != 'e' && c != 'p' && c != 'h' && c != '%')
            return false;
        }
    }
  return true;
}

bool
parse_value (const FlagInfo &f, const char *value, size_t len)
{
  switch (f.kind)
    {
    case Kind::Bool:
      return parse_bool (value, len, (bool *) f.storage);
    case Kind::Int:
      return parse_int (value, len, f.min, f.max, (int *) f.storage);
    case Kind::Name:
      if (!usable_name_pattern (value, len))
        return false;
      break;
    case Kind::Signal:
      if (len <= (size_t) f.max)
        {
          char v[1024];
          internal_memcpy (v, value, len);
          v[len] = 0;
          if (parse_dump_signal (v) < 0)
            return false;
        }
      break;
    case Kind::String:
      break;
    }
  if (len < (size_t) f.min || len > (size_t) f.max)
    return false;
  internal_memcpy (f.storage, value, len);
  ((char *) f.storage)[len] = 0;
  return true;
}

// What F accepts, for messages and the help text.
void
describe_accepted (const FlagInfo &f, char *buf, size_t size)
{
  switch (f.kind)
    {
    case Kind::Bool:
      format (buf, size, "0, 1, true, false, yes or no");
      break;
    case Kind::Int:
      format (buf, size, "%d..%d", f.min, f.max);
      break;
    case Kind::String:
      if (f.min == 0)
        format (buf, size, "text of at most %d bytes", f.max);
      else
        format (buf, size, "text of %d..%d bytes", f.min, f.max);
      break;
    case Kind::Name:
      format (buf, size,
              "a file name of %d..%d bytes, without '/', not . or .., "
              "with %% only in %%e %%p %%h %%%%", f.min, f.max);
      break;
    case Kind::Signal:
      format (buf, size,
              "empty (none), or a signal name (with or without SIG) or "
              "number other than SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, "
              "SIGILL, SIGFPE, SIGABRT");
      break;
    }
}

void
describe_default (const FlagInfo &f, char *buf, size_t size)
{
  if (f.default_text)
    format (buf, size, "\"%s\"", f.default_text);
  else
    format (buf, size, "%d", f.default_number);
}

// At most 127 bytes of the N at S, for a message.
void
clip (const char *s, size_t n, char (&buf)[128])
{
  if (n > sizeof buf - 1)
    n = sizeof buf - 1;
  internal_memcpy (buf, s, n);
  buf[n] = 0;
}

void
apply (const char *name, size_t name_len, const char *value, size_t len)
{
  for (const FlagInfo &f : flag_table)
    {
      if (internal_strlen (f.name) != name_len
          || internal_strncmp (f.name, name, name_len) != 0)
        continue;
      // A bare name sets a Bool; other options need a value.
      if (value ? parse_value (f, value, len)
                : f.kind == Kind::Bool && parse_value (f, "1", 1))
        return;
      set_default (f);
      char shown[128], accepted[256], dflt[1100];
      clip (value ? value : "", value ? len : 0, shown);
      describe_accepted (f, accepted, sizeof accepted);
      describe_default (f, dflt, sizeof dflt);
      report ("memprof: MEMPROF_OPTIONS: bad value '%s' for %s (accepted: "
              "%s); using the default %s", shown, f.name, accepted, dflt);
      return;
    }
  char shown[128], names[512];
  clip (name, name_len, shown);
  size_t n = 0;
  for (const FlagInfo &f : flag_table)
    n += format (names + n, sizeof names - n, "%s%s", n ? " " : "", f.name);
  report ("memprof: MEMPROF_OPTIONS: unknown option '%s' (options: %s; "
          "help=1 describes them)", shown, names);
}

} // namespace

void
parse_flags (const char *options)
{
  for (const FlagInfo &f : flag_table)
    set_default (f);
  if (!options)
    return;
  const char *p = options;
  auto separator = [] (char c) {
    return c == ':' || c == ' ' || c == '\t' || c == '\n';
  };
  while (*p)
    {
      while (separator (*p))
        p++;
      if (!*p)
        break;
      const char *name = p;
      while (*p && *p != '=' && !separator (*p))
        p++;
      size_t name_len = p - name;
      const char *value = nullptr;
      size_t value_len = 0;
      if (*p == '=')
        {
          value = ++p;
          while (*p && !separator (*p))
            p++;
          value_len = p - value;
        }
      apply (name, name_len, value, value_len);
    }
}

void
print_flags_help ()
{
  report ("memprof: options (MEMPROF_OPTIONS=name=value:name=value...), "
          "each as name=default, what it accepts and what it does:");
  for (const FlagInfo &f : flag_table)
    {
      char dflt[1100], accepted[256];
      describe_default (f, dflt, sizeof dflt);
      describe_accepted (f, accepted, sizeof accepted);
      report ("  %s=%s\t%s\t%s", f.name, dflt, accepted, f.description);
    }
}

} // namespace memprof
