// Time and CPU id, read twice per allocation (malloc and free), so they
// must cost a few nanoseconds, not a system call.
//
// Time: CLOCK_MONOTONIC_COARSE is served by the vDSO without reading the
// TSC: one shared-page read.  Its resolution is the kernel tick (1-4 ms),
// enough for lifetimes in ms; monotonic so lifetimes are never negative.
//
// CPU: glibc 2.35+ registers an rseq area per thread, in which the kernel
// keeps cpu_id current; reading it is one load from the thread pointer.
// When rseq is unavailable (__rseq_size == 0, older glibc, or
// GLIBC_TUNABLES=glibc.pthread.rseq=0), fall back to sched_getcpu, which
// uses the vDSO's getcpu.

#include "clock_cpu.h"
#include "internal.h"

#include <sched.h>
#include <stddef.h>
#include <time.h>

extern "C" {
extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
}

namespace memprof {

namespace {
uint64_t clock_zero_ms;   // CLOCK_MONOTONIC_COARSE ms at the clock's zero.
// Offset of struct rseq's cpu_id from the thread pointer, and whether
// the rseq area exists at all: looked up once, in clock_init.
ptrdiff_t rseq_cpu_offset;
bool rseq_known;

uint64_t
coarse_ms ()
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC_COARSE, &ts);
  return (uint64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
} // namespace

uint64_t
unix_time_ms ()
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t
clock_init ()
{
  // Read both clocks back to back: the realtime stamp of the zero.
  uint64_t real = unix_time_ms ();
  clock_zero_ms = coarse_ms ();
  if (&__rseq_size && __rseq_size >= 8)
    {
      // struct rseq: u32 cpu_id_start, u32 cpu_id (negative when the
      // thread is not registered).
      rseq_cpu_offset = __rseq_offset + 4;
      rseq_known = true;
    }
  return real;
}

uint32_t
now_ms ()
{
  uint64_t t = coarse_ms ();
  return t > clock_zero_ms ? (uint32_t) (t - clock_zero_ms) : 0;
}

uint32_t
current_cpu ()
{
  if (LIKELY (rseq_known))
    {
      int32_t cpu = *(const volatile int32_t *) ((char *)
                                                 __builtin_thread_pointer ()
                                                 + rseq_cpu_offset);
      if (LIKELY (cpu >= 0))
        return (uint32_t) cpu;
    }
  int cpu = sched_getcpu ();
  return cpu < 0 ? 0 : (uint32_t) cpu;
}

} // namespace memprof
