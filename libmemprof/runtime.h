// The runtime's internal entry points shared between its parts.

#ifndef MEMPROF_RUNTIME_H
#define MEMPROF_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "allocator.h"
#include "internal.h"
#include "sampling_heap.h"

namespace memprof {

// What allocation needs (allocator, shadow, clock, default options);
// safe before any constructor and from any thread.  If the kernel
// refuses the reservations it reports that and exits the process.
void early_init ();
// Report that the kernel refused to reserve BYTES of WHAT (errno ERR),
// with the likely cause, and exit with status 1.
[[noreturn]] void reservation_failed (const char *what, uintptr_t bytes,
                                      int err);
extern bool early_init_done;
inline void
ensure_early_init ()
{
  if (UNLIKELY (!__atomic_load_n (&early_init_done, __ATOMIC_ACQUIRE)))
    early_init ();
}

// Full initialisation: options, interceptors, exit dump, fork handlers.
// ENVP may be null (then environ is used).
void full_init (int argc, char **argv, char **envp);

// Blocks of another epoch (allocated before a reset or, in a forked
// child, before the fork) are no longer profiled.  A block keeps its
// epoch in 16 bits; advance_epoch makes sure an old block can never pass
// for a current one when the counter wraps.
extern uint16_t profile_epoch;
void advance_epoch ();

// The heap (heap.cpp).  FRAME is the entry point's frame address: the
// stack is recorded from its caller on.  allocate and deallocate
// dispatch inline, so the entry points call the sampling mode's path
// (sampling_heap.h) or the exact one straight away.
void *allocate_exact (size_t size, size_t align, uintptr_t frame, bool zero);
// The sampling mode's weight-1 block (BlockKind::kExact).
void *allocate_certain (size_t size, size_t align, uintptr_t frame,
                        bool zero);
MEMPROF_ALWAYS_INLINE void *
allocate (size_t size, size_t align, uintptr_t frame, bool zero)
{
  ensure_early_init ();
  if (UNLIKELY (sample_interval != 0))
    {
      if (LIKELY (align <= kLibcMallocAlign)
          && LIKELY (take_unsampled (size, site_of_frame (frame))))
        return zero ? libc_heap.calloc (1, size) : libc_heap.malloc (size);
      return allocate_sampling_mode (size, align, frame, zero);
    }
  return allocate_exact (size, align, frame, zero);
}
// Whether P is a block of the C library's, in the sampling mode.
MEMPROF_ALWAYS_INLINE bool
libc_block (const void *p)
{
  return UNLIKELY (libc_heap_in_use) && LIKELY (p != nullptr)
         && LIKELY (!allocator_may_hold (p));
}
MEMPROF_ALWAYS_INLINE void
deallocate (void *p)
{
  if (libc_block (p))
    libc_heap.free (p);   // Straight back to it.
  else if (UNLIKELY (libc_heap_in_use))
    deallocate_sampling_mode (p);
  else
    deallocate_ours (p);
}

// The hottest entry points (malloc, calloc, free, operator new and
// delete) take the sampling mode's unsampled path first, with no frame
// of their own, ending in a jump to the C library's function; anything
// else goes to a function of its own (with a frame, whose return
// address is the entry point's caller: its frame is the one the
// unwinder starts from).  bignum_deep's sampled run: 1.36x -> 1.32x.
// An attribute per function, not flags per file: the _profiled
// functions beside them must keep their frames and make no sibling
// call, as all the rest of the runtime (Makefile.am, RUNTIME_CXXFLAGS).
#define MEMPROF_FAST_ENTRY \
  __attribute__ ((optimize ("omit-frame-pointer", "optimize-sibling-calls")))
// The entry point's caller's site, as site_of_frame reads it.
#define MEMPROF_CALLER_SITE ((uintptr_t) __builtin_return_address (0) - 1)
// Whether the block of SIZE bytes (alignment the C library's) from the
// caller's SITE is the C library's (take_unsampled).
MEMPROF_ALWAYS_INLINE bool
unsampled_at_entry (size_t size, uintptr_t site)
{
  return UNLIKELY (sample_interval != 0) && LIKELY (take_unsampled (size, site));
}
// free and operator delete past the C library's blocks.
void deallocate_profiled (void *p);
// The body of free and of every operator delete (MEMPROF_FAST_ENTRY).
MEMPROF_ALWAYS_INLINE void
free_entry (void *p)
{
  if (libc_block (p))
    return libc_heap.free (p);
  deallocate_profiled (p);
}
void *reallocate (void *p, size_t size, uintptr_t frame);
size_t usable_size (const void *p);
// A free (FN "free", also for delete) or realloc of P, a pointer the
// allocator never returned or a freed block (WHAT says which): one line
// with the address and the stack, then, unless abort_on_invalid_free=0,
// the profile is written and the process aborts.  Cold: only then.
MEMPROF_NOINLINE __attribute__ ((cold)) void
report_invalid_free (const char *fn, const char *what, const void *p);
// Mark every live block of an epoch other than EPOCH as dropped.
void retire_other_epochs (uint16_t epoch);
// Take the live block P, which the C library allocated for the runtime
// itself (the dump thread's TLS vector), out of the profile: no record
// of its life and no part in the live heap, as a block that stands for
// nothing; nor in the peak, if it made one since MARK (live_heap.h).
// Nothing is done unless P is a live profiled block of ours.
struct LivePeakMark;
void forget_runtime_block (void *p, const LivePeakMark &mark);
// Fold every profiled live block into the HIB table as if freed now;
// each block is reported once (it is then excluded from later profiles).
void report_live_blocks ();

// Write a profile now (runtime.cpp): every block freed since the last
// dump and every live block (see memprof_interface.h).  Returns 0 or -1.
// An exec dump with nothing to write writes no file.  Nothing is written
// from a child sharing the parent's memory (vfork).
// What makes a dump (the profile's WRITTEN_AT, raw_format.h): the
// program's request, exit, exec, a signal ending the process, _exit, or
// the dump_signal option's signal.
enum class DumpTrigger { kRequest, kExit, kExec, kSignal, kQuickExit,
                         kDumpSignal };
// Whether this process owns the heap: false in a vfork child (or a clone
// sharing our memory), which must neither dump nor change the runtime's
// state.
bool heap_is_ours ();
int dump_profile (DumpTrigger trigger);
// Whether the calling thread is inside dump_profile.
bool dump_in_progress_here ();

// Endings (signal_dump.cpp): handlers for fatal and terminating signals
// and dump_signal, installed by full_init; the child of a fork gets its
// own dump thread.
void signals_init ();
// The signal ending the process (0 before one), and the dump_signal
// option's (0: none), for the profile's WRITTEN_AT.
int ending_signal ();
int dump_signal_number ();
// _exit and _Exit (quick_exit_dump.cpp): the dump a deadly signal's
// would be, run before the process ends without its exit handlers.
void dump_at_quick_exit ();
// A dump_signal value (NAME, SIGNAME or NUMBER): the signal, 0 for the
// empty string, -1 when it cannot serve (unknown, SIGKILL, SIGSTOP, or
// one of the fatal signals).
int parse_dump_signal (const char *v);
void signals_after_fork_child ();
// A thread's first allocation and its exit: its alternate signal stack
// (PerThread::alt_stack), so a stack overflow in any thread dumps.
struct PerThread;
void signals_thread_start (PerThread *pt);
void signals_thread_exit (PerThread *pt);
// exec_dump.cpp: find libc's exec functions.
void exec_init ();

// Interceptors (interceptors.cpp): switch from the built-in fallbacks to
// libc's implementations.
void interceptors_init ();

#define MEMPROF_FRAME ((uintptr_t) __builtin_frame_address (0))

} // namespace memprof

#endif
