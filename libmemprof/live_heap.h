// The live heap over time: the process's live bytes and blocks and
// their peak, and per allocation context its live bytes and blocks, its
// own maxima and its share of the process's peak.
//
// "At the peak" is kept lazily, without a snapshot of every context at
// each new peak: every new peak advances a generation, and a context
// records the generation it last saw.  A context's live count changes
// only through its own allocations and frees, so when one of them finds
// a newer generation, the context's count is still what it was at that
// latest peak: it is copied to the context's "at peak" first.  The
// common case costs the adds, the max compares and one compare of the
// generation.  Exact for one thread; with several threads a context's
// update may straddle a peak set by another thread (documented).
//
// Every block the runtime hands out is counted, profiled or not (a block
// from before a reset or a fork is still the process's memory); the
// maxima and the peak are the process's since it started.  In the
// sampling mode the unsampled blocks are the C library's and never seen
// (sampling_heap.h): a sampled block counts as the blocks it stands for
// (sampler.h), in the process's totals too, which are then estimates.

#ifndef MEMPROF_LIVE_HEAP_H
#define MEMPROF_LIVE_HEAP_H

#include <stdint.h>

#include "hib_table.h"
#include "internal.h"

namespace memprof {

// A context's block counts are kept in units of 1/kLiveBlockUnit
// block, so that a sampled block can add its weight 1/p (sampler.h)
// without rounding it to a whole block; the dump converts.  (Bytes stay
// whole: a sampled block's SIZE / p is at least the sample interval.)
constexpr uint64_t kLiveBlockUnit = 65536;

// Per context, inside its stack depot node (stack_depot.h).
struct ContextLive
{
  uint64_t bytes, blocks;             // Live now.
  uint64_t max_bytes, max_blocks;     // The context's own maxima.
  uint64_t peak_bytes, peak_blocks;   // Live at peak PEAK_GENERATION.
  uint64_t peak_generation;
  // Blocks reported live by the dump in progress (dump lock held).
  uint64_t exit_bytes, exit_blocks;
};

struct LiveHeap
{
  uint64_t bytes, blocks;
  uint64_t peak_bytes, peak_blocks, peak_time;
  uint64_t generation;   // Advanced at every new peak.
};

extern LiveHeap live_heap;

// The counters are plain memory while one thread uses them and shared
// from the moment a second thread does.  The switch is an asymmetric
// handshake like the HIB caches' (hib_table.cpp): the single thread
// marks itself busy around its plain updates and looks at LIVE_THREADED
// in between; a second thread sets LIVE_THREADED, makes every thread
// pass a full barrier with membarrier(2) and waits until the first is
// not busy.  Without membarrier they are shared from the start, each
// change published at once (no thread keeps a cache).
extern bool live_threaded;
extern volatile uint32_t live_busy;
extern MEMPROF_TLS bool live_thread_seen;
void live_register_thread ();
// At start-up and in a forked child: whether membarrier is registered
// (hib_init).
void live_init (bool have_membarrier);

// Shared, the counters would be written by every thread at every
// allocation and free: a lock-prefixed add on a line the other CPUs
// wrote last made malloc_window 7-9x slower than its plain build, 1.5x
// on one CPU.  So each thread holds its changes back in a small cache
// (it lives in PerThread) and adds them to the shared counters
//   - when an allocation would take a context's live bytes or blocks,
//     or the process's, past their maximum as the thread sees them (the
//     shared count plus its own change): growth is published at once;
//   - when a change reaches kLiveHoldBytes or kLiveHoldBlocks either way;
//   - when another context takes its slot, at the thread's exit and at
//     every dump (with the HIB caches' handshake, hib_table.cpp), and in
//     a forked child for every thread the parent had.
// Every total is exact once published; a maximum or the peak can miss
// (or, through frees held back, overstate) what the other threads held
// back at that moment: at most kLiveHoldBytes and kLiveHoldBlocks each.
constexpr int64_t kLiveHoldBytes = 65536;
constexpr int64_t kLiveHoldWholeBlocks = 256;
constexpr int64_t kLiveHoldBlocks = kLiveHoldWholeBlocks * kLiveBlockUnit;

struct LiveThreadCache
{
  static constexpr uint32_t kSlotBits = 3;
  struct Slot
  {
    ContextLive *context;   // Null: empty.
    int64_t bytes, blocks;  // Held back; BLOCKS in kLiveBlockUnit units.
  };
  volatile uint32_t busy;              // Owner is changing the cache.
  volatile uint32_t flush_requested;   // A dump wants it published.
  // Held back for the process: bytes and whole blocks.
  int64_t heap_bytes, heap_blocks;
  Slot slots[1u << kSlotBits];
};

// NOW may be kLiveNowUnread: the clock is read only for a new peak.
constexpr uint32_t kLiveNowUnread = ~0u;
void live_new_peak (uint64_t bytes, uint64_t blocks, uint32_t now);

// The peak as it was before a block the runtime then takes out of the
// profile (forget_runtime_block): its generation and bytes.
struct LivePeakMark
{
  uint64_t generation, bytes;
};
LivePeakMark live_peak_mark ();
// That block, of BYTES bytes and BLOCKS whole blocks, is no longer
// counted: if it made the peak since MARK, the peak goes back to what
// is live without it (while one thread runs: the dump thread's start,
// at start-up or in a forked child).  When the peak before it was
// larger than what is live now, it is left: then the block overstates
// it by less than its own size.
void live_undo_peak (const LivePeakMark &mark, uint64_t bytes,
                     uint64_t blocks);

inline void
live_catch_up (ContextLive *c, uint64_t generation)
{
  if (UNLIKELY (c->peak_generation != generation))
    {
      c->peak_bytes = c->bytes;
      c->peak_blocks = c->blocks;
      c->peak_generation = generation;
    }
}

// What a block adds to its context's counters: SIZE and one block in
// the exact mode, more for a sampled block (sampler.h).
struct LiveAmount
{
  uint64_t bytes, blocks;   // BLOCKS in units of kLiveBlockUnit.
};

inline LiveAmount
live_exact (uint64_t size)
{
  return { size, kLiveBlockUnit };
}

// Signed: with changes held back, a shared count can be briefly below
// zero (a thread freed a block whose allocation another still holds).
inline int64_t
live_signed (const uint64_t &x)
{
  return (int64_t) __atomic_load_n (&x, __ATOMIC_RELAXED);
}

// The single thread's plain update: SIZE bytes and BLOCKS whole blocks
// go to the process's totals, A to the context C.  (Threaded, the same
// update is live_heap.cpp's publish_slot and publish_heap.)
inline void
live_alloc_plain (ContextLive *c, uint64_t size, LiveAmount a, uint32_t now,
                  uint64_t blocks)
{
  if (LIKELY (c != nullptr))
    {
      live_catch_up (c, __atomic_load_n (&live_heap.generation,
                                         __ATOMIC_RELAXED));
      uint64_t b = c->bytes += a.bytes;
      uint64_t n = c->blocks += a.blocks;
      if (b > c->max_bytes)
        c->max_bytes = b;
      if (n > c->max_blocks)
        c->max_blocks = n;
    }
  uint64_t total = live_heap.bytes += size;
  uint64_t total_blocks = live_heap.blocks += blocks;
  if (total > live_heap.peak_bytes)
    live_new_peak (total, total_blocks, now);
}

inline void
live_free_plain (ContextLive *c, uint64_t size, LiveAmount a, uint64_t blocks)
{
  if (LIKELY (c != nullptr))
    {
      live_catch_up (c, __atomic_load_n (&live_heap.generation,
                                         __ATOMIC_RELAXED));
      c->bytes -= a.bytes;
      c->blocks -= a.blocks;
    }
  live_heap.bytes -= size;
  live_heap.blocks -= blocks;
}

// The threaded path (live_heap.cpp): hold the change back in the
// calling thread's cache when it can, else publish it at once.
void live_alloc_shared (ContextLive *c, uint64_t size, LiveAmount a,
                        uint64_t blocks, uint32_t now);
void live_free_shared (ContextLive *c, uint64_t size, LiveAmount a,
                       uint64_t blocks);

// Enter the single thread's plain update: false when the counters are
// shared (the caller then uses the threaded path).
inline bool
live_enter_plain ()
{
  // Once threaded, always: the threads then never write the shared
  // busy word (3 threads writing it made it the hottest cache line of
  // malloc_window).
  if (__atomic_load_n (&live_threaded, __ATOMIC_RELAXED))
    return false;
  if (UNLIKELY (!live_thread_seen))
    live_register_thread ();
  __atomic_store_n (&live_busy, 1, __ATOMIC_RELAXED);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  if (LIKELY (!__atomic_load_n (&live_threaded, __ATOMIC_ACQUIRE)))
    return true;
  __atomic_store_n (&live_busy, 0, __ATOMIC_RELEASE);
  return false;
}

inline void
live_leave_plain ()
{
  __atomic_store_n (&live_busy, 0, __ATOMIC_RELEASE);
}

// The whole blocks of A, to the nearest.
inline uint64_t
live_whole_blocks (LiveAmount a)
{
  return (a.blocks + kLiveBlockUnit / 2) / kLiveBlockUnit;
}

// A block of context C (null: the depot had no room) starts its life
// at NOW (ms), adding A to C and SIZE bytes and BLOCKS blocks to the
// process's totals.
MEMPROF_ALWAYS_INLINE void
live_alloc (ContextLive *c, uint64_t size, LiveAmount a, uint64_t blocks,
            uint32_t now)
{
  if (LIKELY (live_enter_plain ()))
    {
      live_alloc_plain (c, size, a, now, blocks);
      live_leave_plain ();
    }
  else
    live_alloc_shared (c, size, a, blocks, now);
}

MEMPROF_ALWAYS_INLINE void
live_free (ContextLive *c, uint64_t size, LiveAmount a, uint64_t blocks)
{
  if (LIKELY (live_enter_plain ()))
    {
      live_free_plain (c, size, a, blocks);
      live_leave_plain ();
    }
  else
    live_free_shared (c, size, a, blocks);
}

// A sampled block (A its weighted amount, sampler.h).
MEMPROF_ALWAYS_INLINE void
live_alloc (ContextLive *c, uint32_t now, LiveAmount a)
{
  live_alloc (c, a.bytes, a, live_whole_blocks (a), now);
}

MEMPROF_ALWAYS_INLINE void
live_free (ContextLive *c, LiveAmount a)
{
  live_free (c, a.bytes, a, live_whole_blocks (a));
}

// An exact block of SIZE bytes.
MEMPROF_ALWAYS_INLINE void
live_alloc (ContextLive *c, uint64_t size, uint32_t now)
{
  live_alloc (c, size, live_exact (size), 1, now);
}

MEMPROF_ALWAYS_INLINE void
live_free (ContextLive *c, uint64_t size)
{
  live_free (c, size, live_exact (size), 1);
}

// Thread exit: publish what the calling thread's cache holds back.
void live_thread_exit (LiveThreadCache *tc);
// Forked child: publish what every thread of the parent held back (the
// child is single-threaded; the blocks are its own now).
void live_after_fork_child ();
// Fork: hold the lock of the caches' movers across fork.
void live_lock_all ();
void live_unlock_all ();

// The dump (dump lock held): a block of context C still live is
// reported; A as it added at its allocation.
void live_report_exit (ContextLive *c, LiveAmount a);

// The dump: fill every record's live-heap fields from its context, and
// forget the blocks reported live (the next dump reports others).
void live_fill_records (HibNode *records);

} // namespace memprof

#endif
