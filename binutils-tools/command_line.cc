// The command-line handling memprof-dump and memprof-merge share.
#include "config.h"

#include "command_line.h"
#include "diag.h"

#include <cerrno>
#include <cstdlib>

namespace memprof {

bool
handle_common_option (int c, SymbolizerOptions &sym, void (*usage) (FILE *))
{
  switch (c)
    {
    case OPT_BINARY:
      sym.binaries.push_back (optarg);
      return true;
    case OPT_DEBUG_DIR:
      sym.debug_dirs.push_back (optarg);
      return true;
    case OPT_HELP:
      usage (stdout);
      std::exit (0);
    case OPT_VERSION:
      std::printf ("%s (%s) %s\n", program_name (), PACKAGE_NAME,
                   PACKAGE_VERSION);
      std::exit (0);
    default:
      return false;
    }
}

bool
parse_whole_number (const char *what, const char *arg, unsigned long long min,
                    unsigned long long max, unsigned long long &out)
{
  char *end;
  errno = 0;
  unsigned long long n = std::strtoull (arg, &end, 10);
  if (*arg == '\0' || *end != '\0' || *arg == '-' || errno || n < min
      || n > max)
    {
      report_error ("", format ("invalid %s '%s'", what, arg));
      return false;
    }
  out = n;
  return true;
}

void
hint_help ()
{
  std::fprintf (stderr, "Try '%s --help' for more information.\n",
                program_name ());
}

} // namespace memprof
