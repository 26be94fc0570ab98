// _exit and _Exit end the process without its exit handlers, so no exit
// dump: the usual end of a forked child (redis's BGSAVE children), of a
// daemon's parent, of a program that skips its cleanup.  Intercepted, they
// write the profile first, with the guards of a deadly signal's dump
// (they may be called from a signal handler), then end the process by
// the exit_group system call, as glibc's do.  A child sharing its
// parent's memory (vfork, posix_spawn) writes nothing: dump_profile
// checks the pid.  The runtime's own early exits call the system call
// directly (sys_exit_group), never these.

#include "runtime.h"
#include "internal.h"

#include <unistd.h>

using namespace memprof;

namespace {

[[noreturn]] void
quick_exit_with (int status)
{
  dump_at_quick_exit ();
  sys_exit_group (status);
}

} // namespace

extern "C" {

MEMPROF_EXPORT void
_exit (int status)
{
  quick_exit_with (status);
}

MEMPROF_EXPORT void
_Exit (int status)
{
  quick_exit_with (status);
}

} // extern "C"
