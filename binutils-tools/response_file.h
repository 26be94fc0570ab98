// GNU-style @FILE response files: an argument @FILE is replaced by the
// whitespace-separated arguments FILE holds (quotes and backslashes as in
// libiberty's expandargv).  An @FILE that cannot be read stays as it is.
#ifndef MEMPROF_TOOLS_RESPONSE_FILE_H
#define MEMPROF_TOOLS_RESPONSE_FILE_H

#include <string>
#include <vector>

namespace memprof {

// The expanded argument vector (argv[0] first).
std::vector<std::string> expand_response_files (int argc, char **argv);

// A NULL-terminated char* view of ARGS for getopt_long; valid while ARGS
// lives.
std::vector<char *> argv_view (std::vector<std::string> &args);

} // namespace memprof

#endif
