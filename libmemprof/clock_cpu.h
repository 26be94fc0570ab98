// Cheap time and CPU-id sources for the allocation path, inlined there:
// each allocation and each free reads both.

#ifndef MEMPROF_CLOCK_CPU_H
#define MEMPROF_CLOCK_CPU_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "internal.h"

namespace memprof {

// Start the clock; returns the Unix time in ms of its zero.
uint64_t clock_init ();
// Unix time in ms now.
uint64_t unix_time_ms ();

// What the inline readers below use (clock_cpu.cpp).
extern int (*coarse_gettime) (clockid_t, struct timespec *);
extern uint64_t clock_zero_ms;
extern ptrdiff_t rseq_cpu_offset;
extern bool rseq_known;
uint32_t current_cpu_fallback ();

// Milliseconds since the runtime's clock zero (set by clock_init).
MEMPROF_ALWAYS_INLINE uint32_t
now_ms ()
{
  struct timespec ts;
  coarse_gettime (CLOCK_MONOTONIC_COARSE, &ts);
  uint64_t t = (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
  return t > clock_zero_ms ? (uint32_t) (t - clock_zero_ms) : 0;
}

// The CPU the calling thread runs on.
MEMPROF_ALWAYS_INLINE uint32_t
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
  return current_cpu_fallback ();
}

} // namespace memprof

#endif
