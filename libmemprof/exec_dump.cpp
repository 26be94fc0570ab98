// A profile before exec, as gcov writes its counters: the new image
// replaces the process and no exit dump would ever run.
//
// glibc's exec functions reach the execve system call through its
// internal aliases, never through the PLT, so each of them is
// intercepted here: execve, execv, execvp, execvpe, execl, execle,
// execlp, execveat, fexecve.  posix_spawn, posix_spawnp, system and popen
// need nothing: the calling process goes on (and dumps at its own end),
// and the child they make runs on the parent's memory until its exec, so
// it must not dump (dump_profile checks the pid for that, as it does for
// a vfork child calling execve).
//
// If the exec fails, the process goes on: the file written holds what
// happened before, and the next dump holds what happens after (a dump
// reports each block once).  An exec with nothing recorded since the
// last dump writes no file.

#include "runtime.h"
#include "next_fn.h"
#include "flags.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <unistd.h>

extern "C" {
extern char **environ;
}

namespace memprof {

namespace {

using ExecveFn = int (*) (const char *, char *const[], char *const[]);
using ExecvFn = int (*) (const char *, char *const[]);
using ExecveatFn = int (*) (int, const char *, char *const[], char *const[],
                            int);
using FexecveFn = int (*) (int, char *const[], char *const[]);

struct RealExec
{
  ExecveFn execve;
  ExecvFn execv;
  ExecvFn execvp;
  ExecveFn execvpe;
  ExecveatFn execveat;
  FexecveFn fexecve;
};
RealExec real_exec;

void
dump_before_exec ()
{
  if (flags.dump_at_exit)
    dump_profile (DumpTrigger::kExec);
}

// The arguments of execl and friends: how many, FIRST included.
size_t
count_list_args (const char *first, va_list ap)
{
  size_t n = 0;
  if (first)
    for (n = 1; va_arg (ap, char *); n++)
      ;
  return n;
}

// FIRST and the arguments after it into ARGV, null-terminated; AP is left
// after the terminating null (where execle's envp is).
void
collect_list_args (const char *first, va_list ap, char **argv)
{
  size_t i = 0;
  if (first)
    {
      argv[i++] = (char *) first;
      while (char *a = va_arg (ap, char *))
        argv[i++] = a;
    }
  argv[i] = nullptr;
}

} // namespace

// Resolve libc's functions at start-up (this also links this file into
// programs using libmemprof.a).
void
exec_init ()
{
  next_fn (real_exec.execve, "execve");
  next_fn (real_exec.execv, "execv");
  next_fn (real_exec.execvp, "execvp");
  next_fn (real_exec.execvpe, "execvpe");
  next_fn (real_exec.execveat, "execveat");
  next_fn (real_exec.fexecve, "fexecve");
}

} // namespace memprof

using namespace memprof;

extern "C" {

MEMPROF_EXPORT int
execve (const char *path, char *const argv[], char *const envp[])
{
  dump_before_exec ();
  return next_fn (real_exec.execve, "execve") (path, argv, envp);
}

MEMPROF_EXPORT int
execv (const char *path, char *const argv[])
{
  dump_before_exec ();
  return next_fn (real_exec.execv, "execv") (path, argv);
}

MEMPROF_EXPORT int
execvp (const char *file, char *const argv[])
{
  dump_before_exec ();
  return next_fn (real_exec.execvp, "execvp") (file, argv);
}

MEMPROF_EXPORT int
execvpe (const char *file, char *const argv[], char *const envp[])
{
  dump_before_exec ();
  return next_fn (real_exec.execvpe, "execvpe") (file, argv, envp);
}

MEMPROF_EXPORT int
execveat (int dirfd, const char *path, char *const argv[],
          char *const envp[], int flags)
{
  dump_before_exec ();
  return next_fn (real_exec.execveat, "execveat") (dirfd, path, argv, envp,
                                                   flags);
}

MEMPROF_EXPORT int
fexecve (int fd, char *const argv[], char *const envp[])
{
  dump_before_exec ();
  return next_fn (real_exec.fexecve, "fexecve") (fd, argv, envp);
}

// The list forms become their vector forms (as in glibc); the argument
// vector lives on the stack.
#define MEMPROF_LIST_TO_VECTOR(FIRST, ARGV, AP)                               \
  va_list AP;                                                                 \
  va_start (AP, FIRST);                                                       \
  size_t n_##ARGV = count_list_args (FIRST, AP);                              \
  va_end (AP);                                                                \
  char *ARGV[n_##ARGV + 1];                                                   \
  va_start (AP, FIRST);                                                       \
  collect_list_args (FIRST, AP, ARGV)

MEMPROF_EXPORT int
execl (const char *path, const char *arg, ...)
{
  MEMPROF_LIST_TO_VECTOR (arg, argv, ap);
  va_end (ap);
  return execv (path, argv);
}

MEMPROF_EXPORT int
execlp (const char *file, const char *arg, ...)
{
  MEMPROF_LIST_TO_VECTOR (arg, argv, ap);
  va_end (ap);
  return execvp (file, argv);
}

MEMPROF_EXPORT int
execle (const char *path, const char *arg, ...)
{
  MEMPROF_LIST_TO_VECTOR (arg, argv, ap);
  char *const *envp = va_arg (ap, char *const *);
  va_end (ap);
  return execve (path, argv, envp);
}

} // extern "C"
