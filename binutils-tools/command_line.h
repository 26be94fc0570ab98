// The command-line handling memprof-dump and memprof-merge share: the
// options both take (--binary, --debug-file-directory, --help, --version),
// whole-number arguments, and the "Try --help" hint.
#ifndef MEMPROF_TOOLS_COMMAND_LINE_H
#define MEMPROF_TOOLS_COMMAND_LINE_H

#include "symbolizer.h"

#include <cstdio>
#include <getopt.h>

namespace memprof {

enum CommonOption
{
  OPT_BINARY = 256,
  OPT_DEBUG_DIR,
  OPT_HELP,
  OPT_VERSION,
  OPT_FIRST_PROGRAM_OPTION // A program's own long options start here.
};

#define MEMPROF_COMMON_LONG_OPTIONS                                           \
  { "binary", required_argument, nullptr, OPT_BINARY },                       \
  { "debug-file-directory", required_argument, nullptr, OPT_DEBUG_DIR },      \
  { "help", no_argument, nullptr, OPT_HELP },                                 \
  { "version", no_argument, nullptr, OPT_VERSION }

// Handles getopt's result C if it is a common option (--help and --version
// print and exit 0).  False when C is not one: the caller then reports a
// usage error.
bool handle_common_option (int c, SymbolizerOptions &sym,
                           void (*usage) (FILE *));

// Parses ARG as a whole decimal number in [MIN, MAX] into OUT; otherwise
// reports "invalid WHAT 'ARG'" and returns false.
bool parse_whole_number (const char *what, const char *arg,
                         unsigned long long min, unsigned long long max,
                         unsigned long long &out);

// "Try 'PROGRAM --help' for more information." on stderr.
void hint_help ();

} // namespace memprof

#endif
