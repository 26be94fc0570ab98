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

// A thread's histograms of the contexts it freed blocks of most
// recently, in front of the shared table (it lives in PerThread): a free
// adds its block's slots to its thread's copy of the context's histogram
// with no lock and no shared cache line.  A context gets one of kWays
// ways (fully associative, least recently used out); the way's counts
// go into the shared table when another context takes it, when the
// thread exits and at a dump, which empties every thread's cache with
// the handshake of the HIB caches (hib_table.cpp): busy marked with plain
// stores, flush_requested set by the dump, membarrier(2) in between.
// The counts are mapped on the thread's first free in histogram mode,
// one page per way (512 u64 slots = 4 KiB, 32 KiB per thread, touched
// only as far as the blocks reach), and recycled with the PerThread, so
// they cost at most 32 KiB times the most threads alive at once.
struct HistogramThreadCache
{
  static constexpr uint32_t kWays = 8;
  volatile uint32_t busy;              // Owner is adding into COUNTS.
  volatile uint32_t flush_requested;   // A dump wants COUNTS.
  uint32_t context[kWays];
  uint32_t num_slots[kWays];           // Slots in use, 0: way empty.
  uint32_t last_use[kWays];            // TICK at the way's last add.
  uint32_t tick;
  bool unavailable;                    // Mapping COUNTS failed.
  // kWays x kHistogramMaxSlots, zero past each way's NUM_SLOTS; null
  // until the owner's first add.
  uint64_t (*counts)[kHistogramMaxSlots];
};

// Add the N slot counters at COUNTERS (a block's slots 0..N-1) to
// CONTEXT's histogram: into the calling thread's cache when it has one,
// else into the shared table; N is capped at kHistogramMaxSlots.
void histogram_add (uint32_t context, const uint32_t *counters, size_t n);

// Thread exit: move the calling thread's cache into the shared table.
void histogram_thread_exit (HistogramThreadCache *c);
// Forked child: drop every thread's cache (the counts are the parent's;
// the other threads are gone).
void histogram_after_fork_child ();

// Detach every histogram, the threads' caches emptied into the table
// first (the table is empty afterwards); give the list back with
// histogram_recycle.
HistogramNode *histogram_take ();
void histogram_recycle (HistogramNode *list);
// Drop every histogram (reset, fork child).
void histogram_clear ();

void histogram_lock_all ();
void histogram_unlock_all ();

} // namespace memprof

#endif
