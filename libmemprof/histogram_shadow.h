// Histogram mode's shadow (abi.h): one 4-byte saturating counter per
// 8-byte slot of the whole user address space, reserved (64 TiB,
// committed only where counters are written) when the first unit
// compiled with -fheapprof-histogram registers.  The default mode never
// touches any of this: its paths only test histogram_mode.

#ifndef MEMPROF_HISTOGRAM_SHADOW_H
#define MEMPROF_HISTOGRAM_SHADOW_H

#include <stddef.h>
#include <stdint.h>

#include "shadow.h"

extern "C" uintptr_t __memprof_histogram_shadow_base;

namespace memprof {

// Set (once, never cleared) when a histogram unit registered.
extern bool histogram_mode;

// Registration by the units' constructors (their link-check calls): a
// process whose units disagree stops with one line saying so.
void histogram_note_granule_unit ();
void histogram_note_histogram_unit ();

// Zero the slot counters overlapping [BEGIN, END).
void histogram_clear_range (uintptr_t begin, uintptr_t end);

// The counters of the block [P, P + SIZE) (an empty block owns the slot
// of P): added to CONTEXT's histogram (histogram_table.h), zeroed when
// CLEAR, and summarised as the default mode does it, on the 64-byte
// granules the block overlaps: a granule is touched when one of the
// block's slots in it was.
GranuleStats histogram_take_block (uint32_t context, uintptr_t p, size_t size,
                                   bool clear);

} // namespace memprof

#endif
