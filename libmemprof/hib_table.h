// Heap Info Blocks: per allocation context, what its blocks did.

#ifndef MEMPROF_HIB_TABLE_H
#define MEMPROF_HIB_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "memprof/raw_format.h"

namespace memprof {

// The context id of a record of the sampling mode's weight-1 blocks
// (kChunkCertain): kept apart from its context's sampled blocks until
// the dump's calibration (site_calibration.h).  Depot ids stay below.
constexpr uint32_t kCertainContext = 1u << 31;

// One block's life, gathered at its free (or at a dump while live).
struct BlockLife
{
  uint32_t context_id;
  uint64_t size;
  uint64_t access_count;
  uint32_t percent_utilized;
  uint32_t alloc_timestamp, dealloc_timestamp;
  uint32_t alloc_cpu, dealloc_cpu;
  uint64_t data_type_id;
};

// Merge one block into its context's record: hib_record (hib_cache.h,
// inline) into the calling thread's cache when it has one, else into
// the shared table; hib_record_shared always into the shared table.
void hib_record_shared (const BlockLife &life);
// A sampled block standing for WEIGHT blocks (sampler.h): its sums and
// counts are multiplied by WEIGHT, its minima and maxima are its own.
// Into the shared table (sampled blocks are rare).
void hib_record_weighted (const BlockLife &life, uint64_t weight);
// Fold record ADD of a context into INTO, the same context's.
void hib_merge_records (memprof_raw_mib &into, const memprof_raw_mib &add);

// A thread's cache of the records it merged most recently, in front of
// the shared table (it lives in PerThread).  A dump empties every
// thread's cache into the table before taking it: the thread marks
// itself busy with plain stores while merging, the dump asks for the
// cache and then makes every thread pass a full memory barrier with
// membarrier(2), so each side sees the other (see hib_table.cpp).
struct HibThreadCache
{
  // 128 sets of two: a set is read only when one of its contexts frees
  // a block, so the unused slots cost memory, not cache (64 slots let
  // bignum_deep's 46 contexts evict each other at a quarter of its
  // frees).
  static constexpr uint32_t kSetBits = 7;
  static constexpr uint32_t kSlots = 2u << kSetBits;
  struct Slot
  {
    memprof_raw_mib mib;   // Empty when mib.alloc_count == 0.
    // The first block of the aggregate, for the comparison fields when
    // it joins the shared record after that record's last block.
    uint32_t first_alloc_timestamp;
    uint32_t first_alloc_cpu, first_dealloc_cpu;
    uint32_t unused;
  };
  volatile uint32_t busy;              // Owner is merging into SLOTS.
  volatile uint32_t flush_requested;   // A dump wants SLOTS.
  // A terminating signal (SIGTERM...) that arrived while the owner was
  // merging, here or into its histogram cache: its dump waits until the
  // owner is done (run_deferred_signal), not to lose the profile.
  volatile uint32_t deferred_signal;
  Slot slots[kSlots];
};

// signal_dump.cpp: the owner's cache is no longer busy and a terminating
// signal was deferred: write the profile and die by the signal, as its
// handler would have.
void run_deferred_signal ();

// Thread exit: move the calling thread's cache into the shared table.
void hib_thread_exit (HibThreadCache *c);
// Whether threads may use their caches (membarrier is available);
// decided at start-up, and again in a forked child.
void hib_init ();
// Blocks whose records were dropped for want of memory since the last
// call (the dump says so).
uint64_t hib_take_lost_blocks ();
// Whether hib_init registered membarrier(2) (live_heap.h uses it too).
bool hib_have_membarrier ();
// Make every running thread of the process execute a full memory
// barrier (membarrier(2)); only after hib_have_membarrier said yes.
void membarrier_all_threads ();

struct PerThread;
struct SpinLock;
// A kind of per-thread cache that a dump empties with the handshake of
// hib_table.cpp: where in a PerThread its two words are (offsetof), how
// to move a thread's cache into the shared table (HIB records here,
// histograms in histogram_table.cpp, live-heap changes in
// live_heap.cpp), and the lock that keeps the kind's other movers
// (thread exits) out.
struct ThreadCacheKind
{
  size_t busy, flush_requested;
  void (*move) (PerThread *pt);
  SpinLock *lock;
};
// The dump's half of the handshake, under KIND's lock: ask every cache
// of KIND, membarrier, then move each one asked once its owner is not
// inside an add.  Nothing without membarrier (threads then keep no
// caches).
void flush_thread_caches (const ThreadCacheKind &kind);
// Forked child: drop every thread's cache (the records are the
// parent's; the other threads are gone).
void hib_after_fork_child ();

// The records taken out of the table by hib_take: a list of nodes.
struct HibNode
{
  HibNode *next;
  memprof_raw_mib mib;   // mib.stack_id is the context id.
  // A record of weight-1 blocks (kCertainContext): the record of the
  // same context's sampled blocks, or null; that record's: this one
  // (site_calibration.h, certain_pair).
  HibNode *partner;
};

// Detach every record (the table is empty afterwards; records merged
// meanwhile go to the next take).  TAIL and COUNT (may be null) receive
// the list's last node and its length.  Give the list back with
// hib_recycle, with its last node if known (else it is looked for).
HibNode *hib_take (HibNode **tail = nullptr, uint64_t *count = nullptr);
void hib_recycle (HibNode *list, HibNode *last = nullptr);

// Drop every record (reset, fork child).
void hib_clear ();

void hib_lock_all ();
void hib_unlock_all ();

} // namespace memprof

#endif
