// The live heap over time (see live_heap.h).

#include "live_heap.h"
#include "clock_cpu.h"
#include "hib_cache.h"
#include "hib_table.h"
#include "per_thread.h"
#include "stack_depot.h"

#include <stddef.h>

#include <sched.h>
#include <unistd.h>

namespace memprof {

// Each on its own cache line: the counters are written at every
// allocation, the busy word by the single thread only, and the switch
// is read by every thread and written once.
alignas (64) LiveHeap live_heap;
alignas (64) bool live_threaded;
alignas (64) volatile uint32_t live_busy;
MEMPROF_TLS bool live_thread_seen;

namespace {
SpinLock register_lock;
uint32_t threads_seen;
// Held while a cache is published by someone else than its owner's
// allocations and frees (a dump, the owner's exit), so only one party
// at a time moves it.
SpinLock caches_lock;

// *X = max (*X, V), compared as signed (a shared count can be briefly
// below zero, live_heap.h).
inline void
raise_to (uint64_t *x, uint64_t v)
{
  uint64_t seen = __atomic_load_n (x, __ATOMIC_RELAXED);
  while ((int64_t) v > (int64_t) seen
         && !__atomic_compare_exchange_n (x, &seen, v, true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED))
    ;
}

// Add BYTES and UNITS (kLiveBlockUnit units; negative for frees) to
// context C's shared counters, raising its maxima: what a thread held
// back for C, or one change when it holds nothing back.
void
publish_context (ContextLive *c, int64_t bytes, int64_t units)
{
  live_catch_up (c, __atomic_load_n (&live_heap.generation, __ATOMIC_RELAXED));
  uint64_t b = __atomic_add_fetch (&c->bytes, (uint64_t) bytes,
                                   __ATOMIC_RELAXED);
  uint64_t n = __atomic_add_fetch (&c->blocks, (uint64_t) units,
                                   __ATOMIC_RELAXED);
  if (bytes > 0)
    raise_to (&c->max_bytes, b);
  if (units > 0)
    raise_to (&c->max_blocks, n);
}

// The same for the process's totals (BLOCKS whole), which may set a new
// peak; NOW as live_new_peak's.
void
publish_process (int64_t bytes, int64_t blocks, uint32_t now)
{
  uint64_t total = __atomic_add_fetch (&live_heap.bytes, (uint64_t) bytes,
                                       __ATOMIC_RELAXED);
  uint64_t total_blocks
    = __atomic_add_fetch (&live_heap.blocks, (uint64_t) blocks,
                          __ATOMIC_RELAXED);
  if (bytes > 0 && (int64_t) total > live_signed (live_heap.peak_bytes))
    live_new_peak (total, total_blocks, now);
}

// Publish what the slot S holds back (the slot keeps its context).
void
publish_slot (LiveThreadCache::Slot &s)
{
  publish_context (s.context, s.bytes, s.blocks);
  s.bytes = s.blocks = 0;
}

// Publish what TC holds back for the process.
void
publish_heap (LiveThreadCache *tc, uint32_t now)
{
  if (!tc->heap_bytes && !tc->heap_blocks)
    return;
  publish_process (tc->heap_bytes, tc->heap_blocks, now);
  tc->heap_bytes = tc->heap_blocks = 0;
}

// The slot of context C in a thread's cache.
inline uint32_t
slot_of (const ContextLive *c)
{
  return (uint32_t) ((((uintptr_t) c >> 3) * 0x9e3779b97f4a7c15ULL)
                     >> (64 - LiveThreadCache::kSlotBits));
}

// Hold back a change of context C by A (bytes and blocks, negative for
// a free) and of the process by SIZE and BLOCKS in TC, publishing what
// the rules of LiveThreadCache ask for.  False when TC cannot be used
// (no cache, a dump asking for it, or a signal handler interrupting its
// owner): the caller then updates the shared counters itself.
template <bool Alloc>
MEMPROF_ALWAYS_INLINE bool
hold_back (LiveThreadCache *tc, ContextLive *c, int64_t bytes,
           int64_t units, int64_t size, int64_t blocks, uint32_t now)
{
  if (UNLIKELY (tc == nullptr) || UNLIKELY (tc->busy)
      || UNLIKELY (!__atomic_load_n (&hib_caches_enabled, __ATOMIC_RELAXED)))
    return false;
  __atomic_store_n (&tc->busy, 1, __ATOMIC_RELAXED);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  if (UNLIKELY (__atomic_load_n (&tc->flush_requested, __ATOMIC_ACQUIRE)))
    {
      __atomic_store_n (&tc->busy, 0, __ATOMIC_RELEASE);
      return false;
    }
  if (LIKELY (c != nullptr))
    {
      LiveThreadCache::Slot &s = tc->slots[slot_of (c)];
      if (UNLIKELY (s.context != c))
        {
          if (s.context)
            publish_slot (s);
          s.context = c;
        }
      s.bytes += bytes;
      s.blocks += units;
      bool publish
        = Alloc ? (live_signed (c->bytes) + s.bytes > live_signed (c->max_bytes)
                   || live_signed (c->blocks) + s.blocks
                        > live_signed (c->max_blocks)
                   || s.bytes >= kLiveHoldBytes || s.blocks >= kLiveHoldBlocks)
                : (s.bytes <= -kLiveHoldBytes || s.blocks <= -kLiveHoldBlocks);
      if (UNLIKELY (publish))
        publish_slot (s);
    }
  tc->heap_bytes += size;
  tc->heap_blocks += blocks;
  bool publish
    = Alloc ? (live_signed (live_heap.bytes) + tc->heap_bytes
                 > live_signed (live_heap.peak_bytes)
               || tc->heap_bytes >= kLiveHoldBytes
               || tc->heap_blocks >= kLiveHoldWholeBlocks)
            : (tc->heap_bytes <= -kLiveHoldBytes
               || tc->heap_blocks <= -kLiveHoldWholeBlocks);
  if (UNLIKELY (publish))
    publish_heap (tc, now);
  __atomic_store_n (&tc->busy, 0, __ATOMIC_RELEASE);
  return true;
}

// The calling thread's cache, if it has one.
inline LiveThreadCache *
thread_cache ()
{
  PerThread *pt = per_thread ();
  return pt ? &pt->live : nullptr;
}

void
publish_cache (LiveThreadCache &tc)
{
  for (LiveThreadCache::Slot &s : tc.slots)
    if (s.context)
      {
        publish_slot (s);
        s.context = nullptr;
      }
  publish_heap (&tc, kLiveNowUnread);
}

void
move_cache (PerThread *pt)
{
  publish_cache (pt->live);
}

// Forked child: the parent's threads are gone, their caches' words with
// them.
void
publish_parent_cache (PerThread *pt, void *)
{
  publish_cache (pt->live);
  pt->live.busy = 0;
  pt->live.flush_requested = 0;
}

// Every thread's cache, published by a dump.
const ThreadCacheKind live_cache_kind
  = { offsetof (PerThread, live.busy),
      offsetof (PerThread, live.flush_requested), move_cache, &caches_lock };

} // namespace

void
live_init (bool have_membarrier)
{
  if (!have_membarrier)
    __atomic_store_n (&live_threaded, true, __ATOMIC_RELEASE);
}

namespace {

// One change published at once: the thread keeps no cache, a dump is
// asking for it, or a signal handler interrupted its owner.
MEMPROF_NOINLINE void
publish_change (ContextLive *c, int64_t bytes, int64_t units, int64_t size,
                int64_t blocks, uint32_t now)
{
  if (c)
    publish_context (c, bytes, units);
  publish_process (size, blocks, now);
}

// One change of context C and of the process, held back in the calling
// thread's cache or, when it cannot be, published at once.
template <bool Alloc>
inline void
change_shared (ContextLive *c, int64_t bytes, int64_t units, int64_t size,
               int64_t blocks, uint32_t now)
{
  if (!hold_back<Alloc> (thread_cache (), c, bytes, units, size, blocks, now))
    publish_change (c, bytes, units, size, blocks, now);
}

} // namespace

void
live_alloc_shared (ContextLive *c, uint64_t size, LiveAmount a,
                   uint64_t blocks, uint32_t now)
{
  change_shared<true> (c, (int64_t) a.bytes, (int64_t) a.blocks,
                       (int64_t) size, (int64_t) blocks, now);
}

void
live_free_shared (ContextLive *c, uint64_t size, LiveAmount a,
                  uint64_t blocks)
{
  change_shared<false> (c, -(int64_t) a.bytes, -(int64_t) a.blocks,
                        -(int64_t) size, -(int64_t) blocks, kLiveNowUnread);
}

void
live_thread_exit (LiveThreadCache *tc)
{
  LockGuard g (caches_lock);
  publish_cache (*tc);
}

void
live_after_fork_child ()
{
  per_thread_for_each (publish_parent_cache, nullptr);
}

void
live_lock_all ()
{
  caches_lock.lock ();
}

void
live_unlock_all ()
{
  caches_lock.unlock ();
}

// A thread's first update.  The first thread needs nothing; the second
// switches every thread to the shared counters (see live_heap.h).
void
live_register_thread ()
{
  live_thread_seen = true;
  LockGuard g (register_lock);
  if (++threads_seen < 2 || __atomic_load_n (&live_threaded, __ATOMIC_RELAXED))
    return;
  __atomic_store_n (&live_threaded, true, __ATOMIC_SEQ_CST);
  membarrier_all_threads ();
  while (__atomic_load_n (&live_busy, __ATOMIC_ACQUIRE))
    sched_yield ();   // The first thread is inside a plain update.
}

// Rare: only while the live heap grows past its maximum.  Another thread
// may set a larger peak meanwhile; the larger one wins.
void
live_new_peak (uint64_t bytes, uint64_t blocks, uint32_t now)
{
  if (now == kLiveNowUnread)
    now = now_ms ();
  uint64_t seen = __atomic_load_n (&live_heap.peak_bytes, __ATOMIC_RELAXED);
  while ((int64_t) bytes > (int64_t) seen)
    if (__atomic_compare_exchange_n (&live_heap.peak_bytes, &seen, bytes,
                                     false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED))
      {
        live_heap.peak_blocks = blocks;
        live_heap.peak_time = now;
        __atomic_add_fetch (&live_heap.generation, 1, __ATOMIC_RELAXED);
        return;
      }
}

LivePeakMark
live_peak_mark ()
{
  return { __atomic_load_n (&live_heap.generation, __ATOMIC_RELAXED),
           __atomic_load_n (&live_heap.peak_bytes, __ATOMIC_RELAXED) };
}

void
live_undo_peak (const LivePeakMark &mark, uint64_t bytes, uint64_t blocks)
{
  if (__atomic_load_n (&live_threaded, __ATOMIC_RELAXED)
      || live_heap.generation == mark.generation
      || live_heap.peak_bytes != live_heap.bytes + bytes
      || live_heap.peak_blocks != live_heap.blocks + blocks
      || live_heap.bytes < mark.bytes)
    return;
  // The contexts' "at peak" counts of this generation were taken at the
  // block's allocation, when they were what they are now.
  live_heap.peak_bytes = live_heap.bytes;
  live_heap.peak_blocks = live_heap.blocks;
}

void
live_report_exit (ContextLive *c, LiveAmount a)
{
  if (!c)
    return;
  c->exit_bytes += a.bytes;
  c->exit_blocks += a.blocks;
}

namespace {

// Whole blocks from a count in units of kLiveBlockUnit, to the nearest.
inline uint64_t
whole_blocks (uint64_t units)
{
  return (units + kLiveBlockUnit / 2) / kLiveBlockUnit;
}

// A count copied while changes were held back may be below zero
// (live_heap.h): none of its blocks was live.
inline uint64_t
at_least_zero (uint64_t x)
{
  return (int64_t) x < 0 ? 0 : x;
}

} // namespace

void
live_fill_records (HibNode *records)
{
  flush_thread_caches (live_cache_kind);
  uint64_t generation
    = __atomic_load_n (&live_heap.generation, __ATOMIC_RELAXED);
  for (HibNode *n = records; n; n = n->next)
    {
      memprof_raw_mib &m = n->mib;
      // A context's live heap goes to one record: the sampled blocks'
      // when it also has one of weight-1 blocks (certain_pair).
      if (((uint32_t) m.stack_id & kCertainContext) && n->partner)
        continue;
      ContextLive *c
        = depot_live ((uint32_t) m.stack_id & ~kCertainContext);
      if (!c)
        continue;
      bool current = c->peak_generation == generation;
      m.bytes_at_peak = at_least_zero (current ? c->peak_bytes : c->bytes);
      m.blocks_at_peak
        = whole_blocks (at_least_zero (current ? c->peak_blocks : c->blocks));
      m.max_live_bytes = c->max_bytes;
      m.max_live_blocks = whole_blocks (c->max_blocks);
      m.bytes_at_exit = c->exit_bytes;
      m.blocks_at_exit = whole_blocks (c->exit_blocks);
      c->exit_bytes = c->exit_blocks = 0;
    }
}

} // namespace memprof
