// Error reporting shared by memprof-merge and memprof-dump, in the GNU
// style "PROGRAM: FILE: MESSAGE".
#ifndef MEMPROF_TOOLS_DIAG_H
#define MEMPROF_TOOLS_DIAG_H

#include <stdexcept>
#include <string>

namespace memprof {

// What a reader throws when its input is unusable: the message names the
// problem; whoever catches it adds the file name.
class FormatError : public std::runtime_error
{
public:
  explicit FormatError (const std::string &what) : std::runtime_error (what) {}
};

// The program's name as its messages start ("memprof-dump").
void set_program_name (const char *argv0);
const char *program_name ();

// "PROGRAM: FILE: MESSAGE" on stderr.  FILE may be empty.
void report_error (const std::string &file, const std::string &message);
// "PROGRAM: FILE: warning: MESSAGE" on stderr.
void report_warning (const std::string &file, const std::string &message);

// printf-style formatting into a std::string.
std::string format (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

} // namespace memprof

#endif
