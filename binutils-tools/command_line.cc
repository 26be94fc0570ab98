// The command-line handling memprof-dump and memprof-merge share.
#include "config.h"

#include "command_line.h"
#include "diag.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace memprof {

bool
handle_common_option (int c, SymbolizerOptions &sym, void (*usage) (FILE *))
{
  switch (c)
    {
    case OPT_BINARY:
      // A path that names nothing would only ever fail to match.
      if (access (optarg, R_OK) != 0)
        {
          report_error (optarg, std::strerror (errno));
          std::exit (1);
        }
      sym.binaries.push_back (optarg);
      return true;
    case OPT_DEBUG_DIR:
      {
        // libdw takes a relative directory as relative to each binary's
        // own: make it the user's, relative to the current directory.
        char *dir = realpath (optarg, nullptr);
        if (!dir)
          {
            report_error (optarg, std::strerror (errno));
            std::exit (1);
          }
        sym.debug_dirs.push_back (dir);
        std::free (dir);
        return true;
      }
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
