// Histogram mode: per allocation context, the access counts of its
// blocks' 8-byte slots, summed over the blocks (slot I is bytes
// [8I, 8I + 8) from each block's start).  A context's histogram is as
// long as its largest block's slots, up to kHistogramMaxSlots; slots
// further in are left out of the histogram (the context's access
// counts still include them).  The runtime's own memory (mapped
// arenas), never malloc.

#ifndef MEMPROF_HISTOGRAM_TABLE_H
#define MEMPROF_HISTOGRAM_TABLE_H

#include <stddef.h>
#include <stdint.h>

namespace memprof {

// 512 slots: the first 4 KiB of every block.
constexpr uint32_t kHistogramMaxSlots = 512;

struct HistogramNode
{
  HistogramNode *next;
  uint32_t context_id;
  uint32_t num_slots;   // Slots in use.
  uint32_t capacity;    // Slots the node has room for.
  uint32_t unused;
  uint64_t counts[];    // CAPACITY of them.
};

// Add the N slot counters at COUNTERS (a block's slots 0..N-1) to
// CONTEXT's histogram; N is capped at kHistogramMaxSlots.
void histogram_add (uint32_t context, const uint32_t *counters, size_t n);

// Detach every histogram (the table is empty afterwards); give the list
// back with histogram_recycle.
HistogramNode *histogram_take ();
void histogram_recycle (HistogramNode *list);
// Drop every histogram (reset, fork child).
void histogram_clear ();

void histogram_lock_all ();
void histogram_unlock_all ();

} // namespace memprof

#endif
