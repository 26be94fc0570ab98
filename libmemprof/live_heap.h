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

// The counters are plain memory while one thread uses them and atomic
// from the moment a second thread does (lock-prefixed adds cost about
// as much as the rest of the bookkeeping together).  The switch is an
// asymmetric handshake like the HIB caches' (hib_table.cpp): the single
// thread marks itself busy around its plain updates and looks at
// LIVE_THREADED in between; a second thread sets LIVE_THREADED, makes
// every thread pass a full barrier with membarrier(2) and waits until
// the first is not busy.  Without membarrier the counters are atomic
// from the start.
extern bool live_threaded;
extern volatile uint32_t live_busy;
extern MEMPROF_TLS bool live_thread_seen;
void live_register_thread ();
// At start-up: whether membarrier is registered (hib_init).
void live_init (bool have_membarrier);

// NOW may be kLiveNowUnread: the clock is read only for a new peak.
constexpr uint32_t kLiveNowUnread = ~0u;
void live_new_peak (uint64_t bytes, uint64_t blocks, uint32_t now);

template <bool Atomic>
inline uint64_t
live_add (uint64_t &x, uint64_t d)
{
  if (Atomic)
    return __atomic_add_fetch (&x, d, __ATOMIC_RELAXED);
  return x += d;
}

template <bool Atomic>
inline void
live_sub (uint64_t &x, uint64_t d)
{
  if (Atomic)
    __atomic_sub_fetch (&x, d, __ATOMIC_RELAXED);
  else
    x -= d;
}

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

// SIZE bytes and BLOCKS whole blocks go to the process's totals, A to
// the context C.
template <bool Atomic>
inline void
live_alloc_with (ContextLive *c, uint64_t size, LiveAmount a, uint32_t now,
                 uint64_t blocks = 1)
{
  if (LIKELY (c != nullptr))
    {
      live_catch_up (c, __atomic_load_n (&live_heap.generation,
                                         __ATOMIC_RELAXED));
      uint64_t b = live_add<Atomic> (c->bytes, a.bytes);
      uint64_t n = live_add<Atomic> (c->blocks, a.blocks);
      if (b > c->max_bytes)
        c->max_bytes = b;
      if (n > c->max_blocks)
        c->max_blocks = n;
    }
  uint64_t total = live_add<Atomic> (live_heap.bytes, size);
  uint64_t total_blocks = live_add<Atomic> (live_heap.blocks, blocks);
  if (total > live_heap.peak_bytes)
    live_new_peak (total, total_blocks, now);
}

template <bool Atomic>
inline void
live_free_with (ContextLive *c, uint64_t size, LiveAmount a,
                uint64_t blocks = 1)
{
  if (LIKELY (c != nullptr))
    {
      live_catch_up (c, __atomic_load_n (&live_heap.generation,
                                         __ATOMIC_RELAXED));
      live_sub<Atomic> (c->bytes, a.bytes);
      live_sub<Atomic> (c->blocks, a.blocks);
    }
  live_sub<Atomic> (live_heap.bytes, size);
  live_sub<Atomic> (live_heap.blocks, blocks);
}

// Enter the single thread's plain update: false when the counters are
// atomic (the caller then uses the atomic path).
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

// A sampled block of context C (null: the depot had no room) starts its
// life at NOW (ms), adding A to C and to the process's totals.
inline void
live_alloc (ContextLive *c, uint32_t now, LiveAmount a)
{
  if (LIKELY (live_enter_plain ()))
    {
      live_alloc_with<false> (c, a.bytes, a, now, live_whole_blocks (a));
      live_leave_plain ();
    }
  else
    live_alloc_with<true> (c, a.bytes, a, now, live_whole_blocks (a));
}

// The exact mode's (its own copy, with the amounts constant).
inline void
live_alloc (ContextLive *c, uint64_t size, uint32_t now)
{
  if (LIKELY (live_enter_plain ()))
    {
      live_alloc_with<false> (c, size, live_exact (size), now);
      live_leave_plain ();
    }
  else
    live_alloc_with<true> (c, size, live_exact (size), now);
}

inline void
live_free (ContextLive *c, LiveAmount a)
{
  if (LIKELY (live_enter_plain ()))
    {
      live_free_with<false> (c, a.bytes, a, live_whole_blocks (a));
      live_leave_plain ();
    }
  else
    live_free_with<true> (c, a.bytes, a, live_whole_blocks (a));
}

inline void
live_free (ContextLive *c, uint64_t size)
{
  if (LIKELY (live_enter_plain ()))
    {
      live_free_with<false> (c, size, live_exact (size));
      live_leave_plain ();
    }
  else
    live_free_with<true> (c, size, live_exact (size));
}

// The dump (dump lock held): a block of context C still live is
// reported; A as it added at its allocation.
void live_report_exit (ContextLive *c, LiveAmount a);

// The dump: fill every record's live-heap fields from its context, and
// forget the blocks reported live (the next dump reports others).
void live_fill_records (HibNode *records);

} // namespace memprof

#endif
