// Profiles from signals.
//
// Deadly signals: at SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT, and at
// SIGTERM, SIGINT, SIGHUP and SIGPIPE, while the program leaves them at their
// default action, our handler writes the profile and then ends the
// process by the same signal at its default action: the exit status
// (and a core dump) are what they would have been without us.  The dump
// runs in the handler, on a heap that may be damaged, in a thread that
// may have been interrupted inside the runtime: it allocates nothing,
// uses only async-signal-safe system calls, and every wait for a lock
// or a busy cache is bounded (Waiter, internal.h): past the bound, or
// on a fault inside the dump, it is abandoned with one line on stderr.
// An unfinished profile is an unnamed file, which vanishes with the
// process: a profile is complete or absent, never damaged.
//
// The program's handlers always win.  sigaction and the signal family
// are intercepted: a program that installs a handler for one of these
// signals gets it installed in the kernel, and our handler comes back
// only when the program sets SIG_DFL again; meanwhile the program sees
// the actions it set, never ours.  So a program that catches SIGTERM
// and exits normally gets the exit dump, and a crash handler that
// re-raises with SIG_DFL gets ours.
//
// dump_signal (e.g. SIGUSR2): the handler only wakes a dump thread,
// made at start-up with every signal blocked, which writes the profile
// as __memprof_profile_dump does, while the program goes on.  A dump in
// the handler of whatever thread the signal hit would have to give up
// whenever that thread held a runtime lock; the dump thread waits for
// the lock to be released instead.  Requests arriving during a dump
// make one more dump after it.

#include "runtime.h"
#include "flags.h"
#include "live_heap.h"
#include "per_thread.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern "C" int __sigaction (int, const struct sigaction *, struct sigaction *);

namespace memprof {

namespace {

constexpr int kNumSignals = 65;
const int kFatalSignals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
// SIGPIPE too: the usual end of a program writing into "| head".
const int kTerminatingSignals[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE };

// For each signal we stand in for: whether our handler is installed in
// place of the default action, and the action the program believes set.
struct Managed
{
  bool managed;
  bool ours_installed;
  struct sigaction program_view;
};
Managed managed[kNumSignals];

int dump_signal;              // 0: no dump_signal.
int deadly_thread;            // The thread ending the process, 0: none.

MEMPROF_TLS bool in_signal_dump;
sigjmp_buf bailout;
const char *bailout_reason;

uint32_t dump_requests;       // Futex word: requests made so far.

bool
is_fatal (int sig)
{
  for (int s : kFatalSignals)
    if (s == sig)
      return true;
  return false;
}

void
our_handler (int sig, siginfo_t *, void *);

bool
install_ours (int sig)
{
  struct sigaction sa;
  internal_memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = our_handler;
  // SA_NODEFER: a fault inside the dump comes back to the handler, which
  // abandons the dump.  Asynchronous endings wait until we are done.
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
  sigemptyset (&sa.sa_mask);
  for (int s : kTerminatingSignals)
    sigaddset (&sa.sa_mask, s);
  if (dump_signal)
    sigaddset (&sa.sa_mask, dump_signal);
  return __sigaction (sig, &sa, nullptr) == 0;
}

// Stand in for SIG's default action from now on, if the program left it
// at the default.
void
manage (int sig)
{
  Managed &m = managed[sig];
  if (__sigaction (sig, nullptr, &m.program_view) != 0)
    return;
  m.managed = true;
  if (m.program_view.sa_handler == SIG_DFL)
    m.ours_installed = install_ours (sig);
}

uint64_t
monotonic_ns ()
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// End the process by SIG at its default action.
void
die_by (int sig)
{
  struct sigaction dfl;
  internal_memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  __sigaction (sig, &dfl, nullptr);
  syscall (SYS_tgkill, sys_getpid (), sys_gettid (), sig);
  // Blocked until the handler returns (SIGTERM and friends), or it is a
  // fault that comes back when the instruction runs again: either way the
  // default action ends the process.
}

// Another thread is writing the profile and will end the process: wait
// for that (a deadly signal or _exit in a second thread).
[[noreturn]] void
wait_for_ending_thread ()
{
  for (;;)
    {
      struct timespec ts = { 1, 0 };
      nanosleep (&ts, nullptr);
    }
}

// Why a dump from a signal handler cannot run, or null.
const char *
why_no_signal_dump ()
{
  if (runtime_broken)
    return "the runtime itself failed";
  if (dump_in_progress_here ())
    return "the signal arrived during a dump";
  PerThread *pt = per_thread_if_made ();
  if (pt && (__atomic_load_n (&pt->hib.busy, __ATOMIC_RELAXED)
             || __atomic_load_n (&pt->histogram.busy, __ATOMIC_RELAXED)))
    return "the signal arrived while the runtime was recording a block";
  return nullptr;
}

// A dump that must not hang nor fault the ending process: bounded lock
// waits, a fault ends it (bailout).  TRIGGER says which ending; WHERE
// names it in the one line said when the dump cannot run.
void
dump_from_handler (DumpTrigger trigger = DumpTrigger::kSignal,
                   const char *where = "from signal handler")
{
  const char *why = why_no_signal_dump ();
  if (!why)
    {
      if (sigsetjmp (bailout, 1) == 0)
        {
          in_signal_dump = true;
          dump_profile (trigger);
        }
      else
        why = bailout_reason;
      in_signal_dump = false;
    }
  if (why)
    report ("memprof: cannot write profile %s: %s", where, why);
}

// The dump at a deadly signal runs on a stack of its own: the handler
// may be on the program's alternate signal stack, which libsigsegv (in
// gawk) makes 16 KiB and SIGSTKSZ 8, while the dump needs about 40.
// During the dump that stack is also the thread's alternate stack, so
// a fault inside the dump is delivered there, below the dump's frames,
// and cannot write over the handler's frames on the program's stack.
constexpr size_t kDumpStackSize = 128 * 1024;
void *dump_stack;

void
dump_on_dump_stack (void *)
{
  stack_t program, ours;
  bool swapped = sigaltstack (nullptr, &program) == 0;
  if (swapped)
    {
      ours.ss_sp = dump_stack;
      ours.ss_flags = 0;
      ours.ss_size = kDumpStackSize;
      swapped = sigaltstack (&ours, nullptr) == 0;
    }
  dump_from_handler ();
  if (swapped)
    sigaltstack (&program, nullptr);
}

// Call FN (ARG) with the stack pointer at TOP (16-byte aligned), and
// come back to this stack.
MEMPROF_NOINLINE void
call_on_stack (void (*fn) (void *), void *arg, void *top)
{
#if defined(__x86_64__)
  register void *rdi asm ("rdi") = arg;
  asm volatile ("mov %%rsp, %%rbx\n\t"
                "mov %[top], %%rsp\n\t"
                "call *%[fn]\n\t"
                "mov %%rbx, %%rsp"
                : "+r" (rdi)
                : [fn] "r" (fn), [top] "r" (top)
                : "rax", "rbx", "rcx", "rdx", "rsi", "r8", "r9", "r10",
                  "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
                  "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
                  "xmm13", "xmm14", "xmm15", "memory", "cc");
#else
  (void) top;
  fn (arg);
#endif
}

// The dump at a deadly signal, on the dump stack when there is one.
void
dump_at_deadly_signal ()
{
  if (dump_stack)
    call_on_stack (dump_on_dump_stack, nullptr,
                   (char *) dump_stack + kDumpStackSize);
  else
    dump_from_handler ();
}

// SIG can wait until the interrupted code goes on: a terminating signal
// sent to the process (SIGTERM, SIGINT, SIGPIPE...), not a fault, which
// would come back at once.
bool
deferrable (int sig)
{
  return sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL
         && sig != SIGTRAP && sig != SIGSYS && sig != SIGABRT;
}

// The signal whose dump this is (ending_signal).
int ending_sig;

void
on_deadly_signal (int sig)
{
  // The thread was merging a freed block into its cache, which the dump
  // must read: let it finish, and dump when it clears busy.
  PerThread *pt = per_thread_if_made ();
  if (pt && deferrable (sig)
      && (__atomic_load_n (&pt->hib.busy, __ATOMIC_RELAXED)
          || __atomic_load_n (&pt->histogram.busy, __ATOMIC_RELAXED)))
    {
      __atomic_store_n (&pt->hib.deferred_signal, (uint32_t) sig,
                        __ATOMIC_RELAXED);
      return;
    }
  int me = sys_gettid ();
  int other = 0;
  if (!__atomic_compare_exchange_n (&deadly_thread, &other, me, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      if (other == me && in_signal_dump)
        {
          bailout_reason = "the dump itself faulted (a damaged heap?)";
          siglongjmp (bailout, 1);
        }
      if (other == me)
        {
          die_by (sig);
          return;
        }
      wait_for_ending_thread ();
    }
  ending_sig = sig;
  if (flags.dump_at_exit && early_init_done)
    dump_at_deadly_signal ();
  die_by (sig);
}

} // namespace

int
ending_signal ()
{
  return ending_sig;
}

int
dump_signal_number ()
{
  return dump_signal;
}

void
dump_at_quick_exit ()
{
  // A vfork or posix_spawn child shares our memory: it must not even
  // claim deadly_thread, which is its parent's.
  if (!flags.dump_at_exit || !early_init_done || !heap_is_ours ())
    return;
  // A thread already ending the process by a signal writes the profile
  // and ends it: wait for that, as a second deadly signal would.
  int me = sys_gettid (), other = 0;
  if (!__atomic_compare_exchange_n (&deadly_thread, &other, me, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
      && other != me)
    wait_for_ending_thread ();
  // _exit may be called from a signal handler that interrupted the
  // runtime: the same guards as a signal's dump.
  dump_from_handler (DumpTrigger::kQuickExit, "at _exit");
}

void
run_deferred_signal ()
{
  PerThread *pt = per_thread_if_made ();
  if (!pt)
    return;
  int sig = (int) __atomic_exchange_n (&pt->hib.deferred_signal, 0u,
                                       __ATOMIC_RELAXED);
  if (sig)
    on_deadly_signal (sig);
}

namespace {

void
our_handler (int sig, siginfo_t *, void *)
{
  int saved_errno = errno;
  if (sig == dump_signal)
    {
      __atomic_add_fetch (&dump_requests, 1, __ATOMIC_RELEASE);
      syscall (SYS_futex, &dump_requests, FUTEX_WAKE_PRIVATE, 1, nullptr,
               nullptr, 0);
    }
  else
    on_deadly_signal (sig);
  errno = saved_errno;
}

// The block pthread_create allocated with calloc for thread T's dynamic
// TLS vector: glibc keeps the vector's address, one 16-byte entry past
// the block's start, in T's thread control block, which on x86-64 is
// where T (its struct pthread) starts: its second word, read as %fs:8
// in T.
void *
tls_vector_block (pthread_t t)
{
  char *dtv = ((char **) t)[1];
  return dtv ? dtv - 16 : nullptr;
}

void *
dump_thread_main (void *arg)
{
  prctl (PR_SET_NAME, "memprof-dump", 0, 0, 0);
  uint32_t done = (uint32_t) (uintptr_t) arg;
  for (;;)
    {
      uint32_t now = __atomic_load_n (&dump_requests, __ATOMIC_ACQUIRE);
      if (now == done)
        {
          syscall (SYS_futex, &dump_requests, FUTEX_WAIT_PRIVATE, done,
                   nullptr, nullptr, 0);
          continue;
        }
      done = now;
      dump_profile (DumpTrigger::kDumpSignal);
    }
  return nullptr;
}

// The dump thread blocks every signal: which thread gets the program's
// signals does not change.
void
start_dump_thread ()
{
  sigset_t all, saved;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &saved);
  pthread_t t;
  uint32_t done = __atomic_load_n (&dump_requests, __ATOMIC_ACQUIRE);
  LivePeakMark mark = live_peak_mark ();
  int err = pthread_create (&t, nullptr, dump_thread_main,
                            (void *) (uintptr_t) done);
  pthread_sigmask (SIG_SETMASK, &saved, nullptr);
  if (err != 0)
    {
      report ("memprof: dump_signal: cannot start the dump thread: %s",
              strerrordesc_np (err));
      return;
    }
  // The runtime made this thread, the program did not: its TLS vector
  // is no allocation of the program's (it showed up in every profile
  // with dump_signal, under _dl_init and pthread_create).
  forget_runtime_block (tls_vector_block (t), mark);
  pthread_detach (t);
}

// A stack overflow must not kill the handler too: each thread gets an
// alternate signal stack, kept at *SLOT for the next thread, unless it
// has one of the program's.  128 KiB: the dump needs about 40.
bool signals_ready;
void *init_thread_alt_stack;

void
use_alternate_stack (void **slot)
{
  stack_t old;
  if (sigaltstack (nullptr, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return;
  const size_t size = 128 * 1024;
  if (!*slot)
    *slot = map_memory (size, false);
  if (!*slot)
    return;
  stack_t st;
  st.ss_sp = *slot;
  st.ss_flags = 0;
  st.ss_size = size;
  sigaltstack (&st, nullptr);
}

} // namespace

int
parse_dump_signal (const char *v)
{
  if (!*v)
    return 0;
  int sig = 0;
  if (*v >= '0' && *v <= '9')
    {
      for (; *v >= '0' && *v <= '9' && sig < kNumSignals; v++)
        sig = sig * 10 + (*v - '0');
      if (*v)
        return -1;
    }
  else
    {
      if (internal_strncmp (v, "SIG", 3) == 0)
        v += 3;
      for (int s = 1; s < kNumSignals && !sig; s++)
        if (const char *name = sigabbrev_np (s))
          if (internal_strcmp (name, v) == 0)
            sig = s;
    }
  if (sig <= 0 || sig >= kNumSignals || sig == SIGKILL || sig == SIGSTOP
      || is_fatal (sig))
    return -1;
  return sig;
}

// Bounded waits only in a dump from a signal handler (see above).
void
Waiter::check_bound ()
{
  if (!in_signal_dump)
    return;
  uint64_t now = monotonic_ns ();
  if (!start_ns)
    start_ns = now;
  else if (now - start_ns > kLimitNs)
    {
      bailout_reason = "a runtime lock stayed held (the signal arrived "
                       "inside the allocator?)";
      siglongjmp (bailout, 1);
    }
}

void
signals_init ()
{
  // parse_flags accepted only a usable signal or nothing.
  int sig = parse_dump_signal (flags.dump_signal);
  dump_signal = sig > 0 ? sig : 0;
  if (flags.handle_signals)
    {
      for (int s : kFatalSignals)
        manage (s);
      for (int s : kTerminatingSignals)
        if (s != dump_signal)
          manage (s);
      use_alternate_stack (&init_thread_alt_stack);
      // Only the thread that ends the process dumps from a handler.
      dump_stack = map_memory (kDumpStackSize, false);
      __atomic_store_n (&signals_ready, true, __ATOMIC_RELEASE);
    }
  if (dump_signal)
    {
      manage (dump_signal);
      if (managed[dump_signal].ours_installed)
        start_dump_thread ();
    }
}

void
signals_thread_start (PerThread *pt)
{
  if (__atomic_load_n (&signals_ready, __ATOMIC_ACQUIRE))
    use_alternate_stack (&pt->alt_stack);
}

// The stack goes to the next thread with PT: this one must stop using it.
void
signals_thread_exit (PerThread *pt)
{
  stack_t cur;
  if (!pt->alt_stack || sigaltstack (nullptr, &cur) != 0
      || cur.ss_sp != pt->alt_stack || (cur.ss_flags & SS_ONSTACK))
    return;
  stack_t off;
  internal_memset (&off, 0, sizeof off);
  off.ss_flags = SS_DISABLE;
  sigaltstack (&off, nullptr);
}

void
signals_after_fork_child ()
{
  deadly_thread = 0;
  if (dump_signal && managed[dump_signal].ours_installed)
    start_dump_thread ();
}

} // namespace memprof

using namespace memprof;

extern "C" {

// The program's view of its signal actions (see the top of this file).
MEMPROF_EXPORT int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  if (sig <= 0 || sig >= kNumSignals || !managed[sig].managed)
    return __sigaction (sig, act, old);
  Managed &m = managed[sig];
  struct sigaction wanted, kernel_old;
  if (act)
    wanted = *act;   // ACT and OLD may be the same object.
  bool was_ours = m.ours_installed;
  int r = 0;
  if (act && wanted.sa_handler == SIG_DFL)
    {
      if (!was_ours)
        {
          r = __sigaction (sig, nullptr, &kernel_old);
          if (r == 0)
            r = install_ours (sig) ? 0 : -1;
          if (r == 0)
            m.ours_installed = true;
        }
    }
  else
    {
      r = __sigaction (sig, act ? &wanted : nullptr, &kernel_old);
      if (r == 0 && act)
        m.ours_installed = false;
    }
  if (r != 0)
    return r;
  if (old)
    *old = was_ours ? m.program_view : kernel_old;
  if (act && wanted.sa_handler == SIG_DFL)
    m.program_view = wanted;
  return 0;
}

// glibc's signal functions call its sigaction internally: they come here
// so they go through ours.
static sighandler_t
set_handler (int sig, sighandler_t handler, int flags, bool mask_self)
{
  if (handler == SIG_ERR || sig <= 0 || sig >= NSIG)
    {
      errno = EINVAL;
      return SIG_ERR;
    }
  struct sigaction act, old;
  internal_memset (&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = flags;
  sigemptyset (&act.sa_mask);
  if (mask_self)
    sigaddset (&act.sa_mask, sig);
  if (sigaction (sig, &act, &old) < 0)
    return SIG_ERR;
  return old.sa_handler;
}

// BSD semantics, as glibc's signal and bsd_signal.
MEMPROF_EXPORT sighandler_t
signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESTART, true);
}

MEMPROF_EXPORT sighandler_t
bsd_signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESTART, true);
}

// System V semantics: the handler runs once, unmasked.
MEMPROF_EXPORT sighandler_t
sysv_signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

MEMPROF_EXPORT sighandler_t
__sysv_signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

} // extern "C"
