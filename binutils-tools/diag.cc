// Error reporting in the GNU style.
#include "diag.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace memprof {

static const char *g_program_name = "memprof";

void
set_program_name (const char *argv0)
{
  const char *slash = std::strrchr (argv0, '/');
  g_program_name = slash ? slash + 1 : argv0;
}

const char *
program_name ()
{
  return g_program_name;
}

void
report_error (const std::string &file, const std::string &message)
{
  if (file.empty ())
    std::fprintf (stderr, "%s: %s\n", g_program_name, message.c_str ());
  else
    std::fprintf (stderr, "%s: %s: %s\n", g_program_name, file.c_str (),
                  message.c_str ());
}

void
report_warning (const std::string &file, const std::string &message)
{
  report_error (file, "warning: " + message);
}

std::string
format (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  va_list ap2;
  va_copy (ap2, ap);
  int n = std::vsnprintf (nullptr, 0, fmt, ap);
  va_end (ap);
  std::string s (n > 0 ? n : 0, '\0');
  if (n > 0)
    std::vsnprintf (&s[0], n + 1, fmt, ap2);
  va_end (ap2);
  return s;
}

} // namespace memprof
