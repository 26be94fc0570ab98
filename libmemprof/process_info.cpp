// The executable's name with and without /proc.

#include "process_info.h"
#include "internal.h"

#include <sys/auxv.h>
#include <unistd.h>

namespace memprof {

namespace {

char startup_executable[4096];   // Absolute AT_EXECFN; "" when unknown.

} // namespace

void
process_info_init ()
{
  if (startup_executable[0])
    return;
  const char *execfn = (const char *) getauxval (AT_EXECFN);
  if (!execfn || !*execfn)
    return;
  // AT_EXECFN is the name given to execve: relative names are relative
  // to the directory the program started in, which may change later.
  char cwd[4096];
  if (execfn[0] == '/' || !getcwd (cwd, sizeof cwd))
    format (startup_executable, sizeof startup_executable, "%s", execfn);
  else
    {
      if (execfn[0] == '.' && execfn[1] == '/')
        execfn += 2;
      format (startup_executable, sizeof startup_executable, "%s%s%s", cwd,
              cwd[1] ? "/" : "", execfn);
    }
}

size_t
executable_path (char *buf, size_t size)
{
  ssize_t n = readlink ("/proc/self/exe", buf, size - 1);
  if (n > 0)
    {
      buf[n] = 0;
      return (size_t) n;
    }
  return format (buf, size, "%s", startup_executable);
}

bool
proc_fd_available ()
{
  return access ("/proc/self/fd", X_OK) == 0;
}

} // namespace memprof
