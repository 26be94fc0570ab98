// Start-up, the exit dump, fork, and the public dump/reset API.
//
// Initialisation happens in two steps.  early_init (allocator, shadow,
// clock) runs at the first allocation, whenever that is: the loader and
// libc allocate before any constructor.  full_init (options,
// interceptors, exit dump, fork handlers) runs from .preinit_array in
// executables (libmemprof_preinit.o, or the entry inside libmemprof.a),
// else from the library's constructor, else from __memprof_init called
// by an instrumented module's constructor -- whichever comes first.
//
// Every ending of the process that can run code dumps: exit (atexit),
// exec (exec_dump.cpp), fatal and terminating signals (signal_dump.cpp).

#include "runtime.h"
#include "allocator.h"
#include "block_claim.h"
#include "clock_cpu.h"
#include "flags.h"
#include "hib_table.h"
#include "histogram_shadow.h"
#include "histogram_table.h"
#include "module_table.h"
#include "memprof/abi.h"
#include "live_heap.h"
#include "memprof/memprof_interface.h"
#include "per_thread.h"
#include "process_info.h"
#include "profile_writer.h"
#include "sampler.h"
#include "site_calibration.h"
#include "site_tally.h"
#include "shadow.h"
#include "stack_depot.h"
#include "memprof/raw_format.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" {
// Emitted (weak) by the plugin in instrumented modules built with
// -fheapprof=DIR; absent otherwise.
extern const char __memprof_profile_dir[] __attribute__ ((weak));
extern char **environ;
}

namespace memprof {

bool early_init_done;
uint16_t profile_epoch;

namespace {

SpinLock early_lock;
SpinLock full_init_lock;
bool full_init_done;
uint64_t start_unix_ms;
uint64_t parent_pid;       // Set in a forked child.
bool profile_was_reset;    // By __memprof_profile_reset.
uint64_t dump_sequence;
// An instrumented unit's constructor registered (its access counts go
// to our shadow); none: the runtime was preloaded into, or linked
// alone with, uninstrumented code, and the profile says so.
bool instrumented_unit_seen;
SpinLock dump_lock;
int dump_owner;            // Thread id holding dump_lock, 0 when free.
int process_id;            // Whose heap this is (see dump_profile).
// This copy of the runtime is not the process's allocator: it profiles
// nothing and writes no profile (see process_role).
bool dormant;

const char *
find_env (char **envp, const char *name)
{
  if (!envp)
    return nullptr;
  size_t n = internal_strlen (name);
  for (char **e = envp; *e; e++)
    if (internal_strncmp (*e, name, n) == 0 && (*e)[n] == '=')
      return *e + n + 1;
  return nullptr;
}

// ---- profile files ------------------------------------------------------

const char *
executable_name (char *buf, size_t size)
{
  if (!executable_path (buf, size))
    return "unknown";
  const char *b = buf;
  for (const char *p = buf; *p; p++)
    if (*p == '/')
      b = p + 1;
  return b;
}

// Expand the name pattern: %p pid, %e executable, %h host, %% percent.
void
expand_pattern (const char *pattern, char *out, size_t size)
{
  char exe_buf[4096];
  size_t len = 0;
  auto append = [&] (const char *s) {
    for (; *s && len + 1 < size; s++)
      out[len++] = *s;
  };
  for (const char *p = pattern; *p; p++)
    {
      if (*p != '%' || !p[1])
        {
          char c[2] = { *p, 0 };
          append (c);
          continue;
        }
      char tmp[256];
      switch (*++p)
        {
        case 'p':
          format (tmp, sizeof tmp, "%d", sys_getpid ());
          append (tmp);
          break;
        case 'e':
          append (executable_name (exe_buf, sizeof exe_buf));
          break;
        case 'h':
          if (gethostname (tmp, sizeof tmp) != 0)
            tmp[0] = 0;
          tmp[sizeof tmp - 1] = 0;
          append (tmp);
          break;
        case '%':
          append ("%");
          break;
        default:
          {
            char c[3] = { '%', *p, 0 };
            append (c);
          }
        }
    }
  out[len] = 0;
}

// The directories the units' constructors passed (-fheapprof=DIR):
// the main program's first, and the first of a library's, copied (a
// library may be unloaded before the profile is written).
struct RegisteredDir
{
  bool set;
  char path[4096];
};
RegisteredDir program_dir, library_dir;
SpinLock registered_dir_lock;

// Whether the code at PC is the main program's.
bool
in_main_program (const void *pc)
{
  Dl_info at, program;
  return dladdr (pc, &at) && dladdr ((void *) getauxval (AT_ENTRY), &program)
         && at.dli_fbase == program.dli_fbase;
}

// Where profiles go: MEMPROF_OPTIONS' profile_dir, else -fheapprof's
// DIR (the main program's before a library's; the exported variable of
// units from before the constructors passed it), else the working
// directory.
const char *
profile_directory ()
{
  if (flags.profile_dir[0])
    return flags.profile_dir;
  if (program_dir.set)
    return program_dir.path;
  if (__memprof_profile_dir && __memprof_profile_dir[0])
    return __memprof_profile_dir;
  if (library_dir.set)
    return library_dir.path;
  return ".";
}

// In a secure-execution program (setuid or setgid: AT_SECURE) the
// environment is ignored, and a profile is written only into a
// directory the real user cannot tamper with.
bool
secure_execution ()
{
  return getauxval (AT_SECURE) != 0;
}

// mkdir -p DIR with MODE for what it creates; returns 0 or -errno.
int
make_directories (const char *dir, mode_t mode)
{
  char path[4096];
  size_t n = internal_strlen (dir);
  if (n >= sizeof path)
    return -ENAMETOOLONG;
  internal_memcpy (path, dir, n + 1);
  for (size_t i = 1; i <= n; i++)
    if (path[i] == '/' || path[i] == 0)
      {
        char saved = path[i];
        path[i] = 0;
        if (mkdir (path, mode) != 0 && errno != EEXIST)
          return -errno;
        path[i] = saved;
      }
  return 0;
}

// Open the profile directory DIR, creating it.  Returns a descriptor,
// or -1 after setting *REFUSAL (a reason) or *ERR (-errno).  A
// secure-execution program never follows a symlink as DIR's last
// component and accepts only an absolute DIR owned by the effective
// user, not writable by group, others or the real user.
int
open_profile_directory (const char *dir, bool secure, const char **refusal,
                        int *err)
{
  *refusal = nullptr;
  *err = 0;
  if (secure && dir[0] != '/')
    {
      *refusal = "a setuid or setgid program writes profiles only to an "
                 "absolute directory";
      return -1;
    }
  *err = make_directories (dir, secure ? 0700 : 0777);
  if (*err)
    return -1;
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC
                          | (secure ? O_NOFOLLOW : 0));
  if (fd < 0)
    {
      *err = -errno;
      struct stat st;
      if (secure && lstat (dir, &st) == 0 && S_ISLNK (st.st_mode))
        *refusal = "a setuid or setgid program does not follow a symlink "
                   "to its profile directory";
      return -1;
    }
  if (!secure)
    return fd;
  // Its owner or (for a setgid program) its group is the program's
  // effective one; nobody else may write there.
  struct stat st;
  if (fstat (fd, &st) != 0
      || (st.st_uid != geteuid () && st.st_gid != getegid ())
      || (st.st_mode & S_IWOTH)
      || ((st.st_mode & S_IWGRP) && st.st_gid != getegid ()))
    *refusal = "the profile directory of a setuid or setgid program must be "
               "owned by its effective user or group and not writable by "
               "others";
  else if (access (dir, W_OK) == 0)
    *refusal = "the profile directory of a setuid or setgid program must not "
               "be writable by the user running it";
  if (*refusal)
    {
      sys_close (fd);
      return -1;
    }
  return fd;
}

// The name of attempt ATTEMPT: NAME itself, then NAME with ".N" before
// its .memprofraw suffix (or at its end).
void
candidate_name (const char *name, unsigned attempt, char *out, size_t size)
{
  if (attempt == 0)
    {
      format (out, size, "%s", name);
      return;
    }
  size_t n = internal_strlen (name);
  size_t sl = sizeof (MEMPROF_RAW_SUFFIX) - 1;
  if (n > sl && internal_strcmp (name + n - sl, MEMPROF_RAW_SUFFIX) == 0)
    {
      char stem[1024];
      size_t k = n - sl < sizeof stem - 1 ? n - sl : sizeof stem - 1;
      internal_memcpy (stem, name, k);
      stem[k] = 0;
      format (out, size, "%s.%u%s", stem, attempt, MEMPROF_RAW_SUFFIX);
    }
  else
    format (out, size, "%s.%u", name, attempt);
}

// Give the written, still unnamed (or temporary) file its final name in
// the directory DIR_FD without ever replacing an existing file or
// following a symlink.  Returns 0 or -errno, with the chosen name in
// FINAL.
int
publish (int fd, const char *tmp_name, int dir_fd, const char *name,
         char *final, size_t size)
{
  char fd_path[64];
  format (fd_path, sizeof fd_path, "/proc/self/fd/%d", fd);
  for (unsigned attempt = 0; attempt < 10000; attempt++)
    {
      candidate_name (name, attempt, final, size);
      int r = tmp_name ? linkat (dir_fd, tmp_name, dir_fd, final, 0)
                       : linkat (AT_FDCWD, fd_path, dir_fd, final,
                                 AT_SYMLINK_FOLLOW);
      if (r == 0)
        return 0;
      if (errno != EEXIST)
        return -errno;
    }
  return -EEXIST;
}

// strerrordesc_np: no locale, no allocation, safe in a signal handler.
const char *
error_text (int negative_errno)
{
  const char *s = strerrordesc_np (-negative_errno);
  return s ? s : "Unknown error";
}

// Write RECORDS as a new profile file.  Returns 0 or -1 (after one line
// on stderr naming the path).
int
write_profile_file (const HibNode *records, const ProfileMeta &meta)
{
  const char *dir = profile_directory ();
  bool secure = secure_execution ();
  char name[1024], path[4096];
  expand_pattern (flags.profile_name, name, sizeof name);
  format (path, sizeof path, "%s/%s", dir, name);
  const char *refusal;
  int err;
  int dir_fd = open_profile_directory (dir, secure, &refusal, &err);
  if (dir_fd < 0)
    {
      report ("memprof: %s: cannot write profile: %s", path,
              refusal ? refusal : error_text (err));
      return -1;
    }
  // The profile of a secure-execution program holds its caller's
  // command line: readable by its effective user only.
  mode_t mode = secure ? 0600 : 0666;
  // Preferably an unnamed file in DIR (O_TMPFILE; naming it later needs
  // /proc/self/fd): a killed run leaves nothing behind.  Else a hidden
  // temporary name, removed afterwards.
  char tmp_name[1100];
  const char *tmp = nullptr;
  int fd = proc_fd_available ()
             ? openat (dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode)
             : -1;
  if (fd < 0)
    {
      format (tmp_name, sizeof tmp_name, ".%s.%d.tmp", name, sys_getpid ());
      fd = openat (dir_fd, tmp_name,
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
      if (fd < 0)
        {
          report ("memprof: %s: cannot write profile: %s", path,
                  error_text (-errno));
          sys_close (dir_fd);
          return -1;
        }
      tmp = tmp_name;
    }
  err = write_raw_profile (fd, records, meta);
  char final[1100];
  if (!err)
    err = publish (fd, tmp, dir_fd, name, final, sizeof final);
  else
    format (final, sizeof final, "%s", name);
  if (tmp)
    unlinkat (dir_fd, tmp, 0);
  sys_close (fd);
  sys_close (dir_fd);
  if (err)
    {
      report ("memprof: %s/%s: cannot write profile: %s", dir, final,
              error_text (err));
      return -1;
    }
  if (flags.verbosity >= 1)
    report ("memprof: wrote %s/%s", dir, final);
  return 0;
}

void
lock_dump ()
{
  dump_lock.lock ();
  __atomic_store_n (&dump_owner, sys_gettid (), __ATOMIC_RELAXED);
}

void
unlock_dump ()
{
  __atomic_store_n (&dump_owner, 0, __ATOMIC_RELAXED);
  dump_lock.unlock ();
}

// What made a dump, as the profile's WRITTEN_AT says it.
uint64_t
written_at (DumpTrigger trigger)
{
  switch (trigger)
    {
    case DumpTrigger::kExit:
      return MEMPROF_WRITTEN_AT_EXIT;
    case DumpTrigger::kExec:
      return MEMPROF_WRITTEN_AT_EXEC;
    case DumpTrigger::kSignal:
      return MEMPROF_WRITTEN_AT_SIGNAL
             | (uint64_t) (ending_signal () & 0xff) << 8;
    case DumpTrigger::kQuickExit:
      return MEMPROF_WRITTEN_AT_QUICK_EXIT;
    case DumpTrigger::kRequest:
      return MEMPROF_WRITTEN_AT_REQUEST;
    case DumpTrigger::kDumpSignal:
      return MEMPROF_WRITTEN_AT_DUMP_SIGNAL
             | (uint64_t) (dump_signal_number () & 0xff) << 8;
    }
  return 0;
}

} // namespace

bool
heap_is_ours ()
{
  return !process_id || sys_getpid () == process_id;
}

int
dump_profile (DumpTrigger trigger)
{
  if (dormant)
    return -1;
  if (!early_init_done)
    return 0;
  // A vfork child (or a clone sharing our memory) runs on its parent's
  // heap: dumping would take the parent's records.
  if (!heap_is_ours ())
    return 0;
  int saved_errno = errno;
  lock_dump ();
  report_live_blocks ();
  HibNode *records_tail;
  HibNode *records = hib_take (&records_tail);
  if (uint64_t lost = hib_take_lost_blocks ())
    report ("memprof: %lu blocks are missing from this profile: no memory "
            "for their records (mmap: %s)", (unsigned long) lost,
            error_string (ENOMEM));
  // After the records: a block's slots join its histogram before its
  // record joins the table, so every record taken has its slots here.
  HistogramNode *histograms
    = UNLIKELY (histogram_mode) ? histogram_take () : nullptr;
  // An exec with nothing recorded since the last dump (typically a
  // forked child that execs at once) leaves no empty file behind; nor
  // does an ending after the process's profile was written (a SIGPIPE
  // from stdio's flush after the exit dump, a handler's _exit).
  bool ending = trigger == DumpTrigger::kSignal
                || trigger == DumpTrigger::kQuickExit;
  // Nor does a forked child that allocated nothing and leaves by _exit:
  // the child of a failed exec (a shell's, Tcl's exec), which would
  // otherwise leave an empty file where a successful exec leaves none.
  bool idle_child = trigger == DumpTrigger::kQuickExit && parent_pid;
  if ((trigger == DumpTrigger::kExec || idle_child
       || (ending && dump_sequence > 0))
      && !records)
    {
      histogram_recycle (histograms);
      unlock_dump ();
      errno = saved_errno;
      return 0;
    }
  certain_pair (records);
  live_fill_records (records);
  CalibrationStats calibration = CalibrationStats ();
  bool calibrated = sample_interval && site_calibrate (records, &calibration);
  HibNode *merged = certain_merge (&records, &records_tail);
  ProfileMeta meta;
  meta.pid = (uint64_t) sys_getpid ();
  meta.parent_pid = parent_pid;
  meta.start_time_ms = start_unix_ms;
  meta.end_time_ms = unix_time_ms ();
  meta.dump_sequence = dump_sequence++;
  meta.peak_bytes = live_heap.peak_bytes;
  meta.peak_blocks = live_heap.peak_blocks;
  meta.peak_time_ms = live_heap.peak_time;
  meta.histogram_mode = histogram_mode;
  meta.histograms = histograms;
  meta.sample_interval = sample_interval;
  meta.site_calibrated = calibrated;
  meta.unattributed_allocs = calibration.lost_allocations;
  meta.unattributed_bytes = calibration.lost_bytes;
  // Whole: its blocks are every block the process allocated (no dump
  // before it took some; no fork or reset dropped the ones before).
  bool whole_run = meta.dump_sequence == 0 && !parent_pid && !profile_was_reset;
  if (sample_interval)
    sampled_bounds (records, whole_run, meta.unattributed_bytes,
                    meta.unattributed_allocs, &meta.peak_bytes,
                    &meta.peak_blocks);
  meta.uninstrumented = !__atomic_load_n (&instrumented_unit_seen,
                                          __ATOMIC_RELAXED);
  meta.written_at = written_at (trigger);
  if (sample_interval && flags.verbosity >= 1)
    {
      report ("memprof: sampled %lu allocations so far (sample_interval=%lu); "
              "%lu stacks captured",
              (unsigned long) sampled_blocks (),
              (unsigned long) sample_interval,
              (unsigned long) depot_stack_count ());
      report ("memprof: %lu sites calibrated to exact totals (%lu records); "
              "%lu records left as sampled; %lu allocations (%lu bytes) "
              "tallied at sites without a record",
              (unsigned long) calibration.sites,
              (unsigned long) calibration.records,
              (unsigned long) calibration.records_left,
              (unsigned long) calibration.lost_allocations,
              (unsigned long) calibration.lost_bytes);
    }
  if (flags.print_text)
    {
      sort_records_for_text (&records, &records_tail);
      print_text_report (records, meta);
    }
  int r = write_profile_file (records, meta);
  hib_recycle (records, records_tail);
  hib_recycle (merged);
  histogram_recycle (histograms);
  unlock_dump ();
  errno = saved_errno;
  return r;
}

bool
dump_in_progress_here ()
{
  return __atomic_load_n (&dump_owner, __ATOMIC_RELAXED) == sys_gettid ();
}

namespace {

void
exit_dump ()
{
  if (flags.dump_at_exit)
    dump_profile (DumpTrigger::kExit);
}

// ---- fork ---------------------------------------------------------------

void
before_fork ()
{
  lock_dump ();
  allocator_lock_all ();
  per_thread_lock ();
  hib_lock_all ();
  histogram_lock_all ();
  live_lock_all ();
}

void
after_fork_parent ()
{
  live_unlock_all ();
  histogram_unlock_all ();
  hib_unlock_all ();
  per_thread_unlock ();
  allocator_unlock_all ();
  unlock_dump ();
}

// The child profiles only what it does itself: the records the parent
// gathered are dropped and the parent's live blocks leave the profile.
void
after_fork_child ()
{
  live_unlock_all ();
  histogram_unlock_all ();
  hib_unlock_all ();
  per_thread_unlock ();
  allocator_unlock_all ();
  unlock_dump ();
  hib_after_fork_child ();
  histogram_after_fork_child ();
  live_after_fork_child ();
  live_init (hib_have_membarrier ());
  block_claim_after_fork_child ();
  block_claim_init (hib_have_membarrier ());
  modules_after_fork_child ();
  hib_clear ();
  histogram_clear ();
  site_tally_reset ();
  advance_epoch ();
  parent_pid = (uint64_t) sys_getppid ();
  process_id = sys_getpid ();
  dump_sequence = 0;
  sampler_after_fork_child ();
  signals_after_fork_child ();
}

// One runtime per process.  Only libmemprof.so can find itself beside
// another allocator: in an uninstrumented program that dlopens an
// instrumented library (libc's malloc came first), or next to a copy of
// libmemprof.a linked into the executable with -static-libmemprof.  The
// program's malloc, as the dynamic linker resolves it for everyone,
// tells: if it is not in this module, this copy stays dormant -- its
// shadow stays mapped so instrumented code still counts harmlessly, but
// it tracks nothing and writes no profile.
enum class ProcessRole
{
  kAllocator,          // The process's malloc: the one runtime.
  kSecondCopy,         // Another copy of the runtime is the allocator.
  kOpenedLate,         // libc's malloc is, we came by dlopen: nothing
                       // can be tracked.
  kLinkedLate          // libc's malloc is, we were loaded at start-up
                       // after libc (an uninstrumented program linked
                       // with an instrumented library).
};

ProcessRole
process_role ()
{
#ifdef PIC
  Dl_info self, program_malloc;
  void *m = dlsym (RTLD_DEFAULT, "malloc");
  if (!m || !dladdr ((void *) &process_role, &self)
      || !dladdr (m, &program_malloc)
      || program_malloc.dli_fbase == self.dli_fbase)
    return ProcessRole::kAllocator;
  // The executable's copy exports the shadow base the instrumented
  // libraries it links with refer to.  (Our own references to it bind
  // to that copy too: compare modules, not addresses.)
  Dl_info shadow_owner;
  void *shadow = dlsym (RTLD_DEFAULT, MEMPROF_SHADOW_BASE_SYMBOL);
  if (shadow && dladdr (shadow, &shadow_owner)
      && shadow_owner.dli_fbase != self.dli_fbase)
    return ProcessRole::kSecondCopy;
  // Loaded at start-up, this module is among those the executable's own
  // lookups search; opened with dlopen (as a library's dependency), it
  // is not.
  void *program = dlopen (nullptr, RTLD_LAZY | RTLD_NOLOAD);
  Dl_info found;
  void *mine = program ? dlsym (program, MEMPROF_SHADOW_BASE_SYMBOL) : nullptr;
  bool at_start_up = mine && dladdr (mine, &found)
                     && found.dli_fbase == self.dli_fbase;
  return at_start_up ? ProcessRole::kLinkedLate : ProcessRole::kOpenedLate;
#else
  return ProcessRole::kAllocator;   // libmemprof.a: linked into the executable.
#endif
}

// Threads give their caches back when they exit (allocator.cpp uses a
// pthread key for that); this constructor runs full_init as early as a
// shared library can.
__attribute__ ((constructor (101))) void
library_constructor (int argc, char **argv, char **envp)
{
  full_init (argc, argv, envp);
}

} // namespace

// Called with dump_lock held (or in a forked child).  A block stamped
// with epoch X could pass for current again 65536 epochs later.  Every
// 32768 epochs, every live block of another epoch is marked dropped, so
// each old block is retired before its epoch value comes round again
// (one allocating while a sweep runs keeps an epoch just before the
// sweep's, and the next sweep, 32768 epochs on, catches it).  A sweep
// walks the heap's headers: rare enough to cost nothing overall.
void
advance_epoch ()
{
  uint16_t e = __atomic_add_fetch (&profile_epoch, 1, __ATOMIC_RELEASE);
  if ((e & 0x7fff) == 0)
    retire_other_epochs (e);
}

// Valgrind cannot give its client terabytes of address space (the
// mmap fails with EINVAL); the libraries it preloads, mapped already
// when the first malloc comes (perhaps before the environment is set),
// say it is there.
static bool
under_valgrind ()
{
  int fd = sys_open ("/proc/self/maps", O_RDONLY, 0);
  if (fd < 0)
    return false;
  static const char kMark[] = "/vgpreload_";
  constexpr size_t kMarkLen = sizeof kMark - 1;
  char buf[4096 + kMarkLen];
  size_t kept = 0;
  bool found = false;
  long n;
  // Each read keeps the last few bytes of the one before, so a name
  // across two reads is found.
  while (!found && (n = sys_read (fd, buf + kept, sizeof buf - kept)) > 0)
    {
      size_t len = kept + (size_t) n;
      for (size_t i = 0; i + kMarkLen <= len && !found; i++)
        found = internal_strncmp (buf + i, kMark, kMarkLen) == 0;
      kept = len < kMarkLen ? len : kMarkLen;
      internal_memmove (buf, buf + len - kept, kept);
    }
  sys_close (fd);
  return found;
}

// Like the sanitizers: one line naming what could not be reserved, and
// why when we can tell, then exit status 1 before the program runs.
// _exit, since nothing of the runtime (nor perhaps of libc) is ready
// for atexit handlers yet.
void
reservation_failed (const char *what, uintptr_t bytes, int err)
{
  char size[32];
  if (bytes >= ((uintptr_t) 1 << 40) && bytes % ((uintptr_t) 1 << 40) == 0)
    format (size, sizeof size, "%lu TiB", (unsigned long) (bytes >> 40));
  else
    format (size, sizeof size, "%lu GiB", (unsigned long) (bytes >> 30));
  const char *why = under_valgrind ()
                      ? " (running under Valgrind, which cannot map that "
                        "much: run a build without -fheapprof under it)"
                      : err == ENOMEM ? " (is 'ulimit -v' set?)" : "";
  report ("memprof: cannot reserve %s of %s: %s%s", size, what,
          error_string (err), why);
  sys_exit_group (1);
}

void
early_init ()
{
  LockGuard g (early_lock);
  if (early_init_done)
    return;
  parse_flags (nullptr);
  start_unix_ms = clock_init ();
  // Without the shadow, instrumented code would write its counters
  // through a null base into whatever lies at low addresses, and no
  // mapping can stand in for 16 TiB of shadow: stop here, clearly.
  if (!shadow_init ())
    reservation_failed ("shadow memory", shadow_size (), errno);
  if (!allocator_init ())
    reservation_failed ("heap address space", allocator_space_size (), errno);
  hib_init ();
  live_init (hib_have_membarrier ());
  block_claim_init (hib_have_membarrier ());
  __atomic_store_n (&early_init_done, true, __ATOMIC_RELEASE);
}

void
full_init (int argc, char **argv, char **envp)
{
  if (__atomic_load_n (&full_init_done, __ATOMIC_ACQUIRE))
    return;
  LockGuard g (full_init_lock);
  if (full_init_done)
    return;
  early_init ();
  if (!envp)
    envp = environ;
  // Setuid programs ignore the environment, like every sanitizer.
  const char *options
    = secure_execution () ? nullptr : find_env (envp, "MEMPROF_OPTIONS");
  parse_flags (options);
  sampler_init ();
  process_info_init ();
  if (flags.help)
    print_flags_help ();
  process_id = sys_getpid ();
  record_command_line (argc, argv);
  interceptors_init ();
  exec_init ();
  ProcessRole role = process_role ();
  if (role != ProcessRole::kAllocator)
    {
      dormant = true;
      if (role == ProcessRole::kOpenedLate)
        report ("memprof: loaded by dlopen into an uninstrumented program; "
                "allocations are not tracked; link it with -fheapprof or "
                "LD_PRELOAD=libmemprof.so");
      else if (role == ProcessRole::kLinkedLate)
        report ("memprof: loaded after the C library by an uninstrumented "
                "program; allocations are not tracked; link it with "
                "-fheapprof or LD_PRELOAD=libmemprof.so");
      else if (flags.verbosity >= 1)
        report ("memprof: libmemprof.so defers to the runtime linked into "
                "the executable");
      __atomic_store_n (&full_init_done, true, __ATOMIC_RELEASE);
      return;
    }
  pthread_atfork (before_fork, after_fork_parent, after_fork_child);
  atexit (exit_dump);
  signals_init ();
  if (flags.verbosity >= 1)
    report ("memprof: initialised; shadow at %p, profiles go to %s",
            (void *) __memprof_shadow_memory_dynamic_address,
            profile_directory ());
  __atomic_store_n (&full_init_done, true, __ATOMIC_RELEASE);
}

} // namespace memprof

using namespace memprof;

extern "C" {

MEMPROF_EXPORT void
__memprof_init (void)
{
  full_init (0, nullptr, nullptr);
}

// Called from .preinit_array with the arguments glibc gives it.
MEMPROF_EXPORT void
__memprof_preinit (int argc, char **argv, char **envp)
{
  full_init (argc, argv, envp);
}

// Each instrumented unit's constructor calls it; the only runtime symbol
// instrumented code references strongly: linking it without this
// runtime, or against one of another ABI version, fails naming it
// (abi.h).
MEMPROF_EXPORT void
__memprof_runtime_v1_missing__link_with_fheapprof (void)
{
  full_init (0, nullptr, nullptr);
  __atomic_store_n (&instrumented_unit_seen, true, __ATOMIC_RELAXED);
  histogram_note_granule_unit ();
}

// The same for a unit compiled with -fheapprof-histogram: it also
// switches the runtime to histogram mode (histogram_shadow.h).
MEMPROF_EXPORT void
__memprof_runtime_v1_histogram_missing__link_with_fheapprof (void)
{
  full_init (0, nullptr, nullptr);
  __atomic_store_n (&instrumented_unit_seen, true, __ATOMIC_RELAXED);
  histogram_note_histogram_unit ();
}

// Each unit compiled with -fheapprof=DIR passes DIR from its constructor
// (abi.h): the first of the main program's units and the first of the
// libraries' are kept.
MEMPROF_EXPORT void
__memprof_set_profile_dir (const char *dir)
{
  size_t n = dir ? internal_strlen (dir) : 0;
  if (n == 0 || n >= sizeof program_dir.path)
    return;
  RegisteredDir &slot = in_main_program (__builtin_return_address (0))
                          ? program_dir : library_dir;
  LockGuard g (registered_dir_lock);
  if (slot.set)
    return;
  internal_memcpy (slot.path, dir, n + 1);
  slot.set = true;
}

MEMPROF_EXPORT int
__memprof_profile_dump (void)
{
  ensure_early_init ();
  return dump_profile (DumpTrigger::kRequest);
}

MEMPROF_EXPORT void
__memprof_profile_reset (void)
{
  if (!early_init_done)
    return;
  lock_dump ();
  hib_clear ();
  histogram_clear ();
  site_tally_reset ();
  advance_epoch ();
  profile_was_reset = true;
  unlock_dump ();
}

} // extern "C"
