// Facts about the process that /proc would give, with fallbacks for
// when /proc is not mounted (containers, chroots).

#ifndef MEMPROF_PROCESS_INFO_H
#define MEMPROF_PROCESS_INFO_H

#include <stddef.h>

namespace memprof {

// Remember what the fallbacks need, while it is still true: the
// executable's name from the auxiliary vector (AT_EXECFN) made absolute
// against the start-up directory.  Called once from full_init.
void process_info_init ();

// The executable's path into BUF: /proc/self/exe, else the start-up
// name kept by process_info_init.  Returns its length (0: unknown).
size_t executable_path (char *buf, size_t size);

// Whether /proc/self/fd is there (naming an O_TMPFILE file needs it).
bool proc_fd_available ();

} // namespace memprof

#endif
