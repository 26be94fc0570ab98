// Cheap time and CPU-id sources for the allocation path.

#ifndef MEMPROF_CLOCK_CPU_H
#define MEMPROF_CLOCK_CPU_H

#include <stdint.h>

namespace memprof {

// Milliseconds since the runtime's clock zero (set by clock_init).
uint32_t now_ms ();
// The CPU the calling thread runs on.
uint32_t current_cpu ();
// Start the clock; returns the Unix time in ms of its zero.
uint64_t clock_init ();
// Unix time in ms now.
uint64_t unix_time_ms ();

} // namespace memprof

#endif
