// The per-context histograms of histogram mode: a chained hash table
// keyed by context id, buckets guarded by striped spin locks like the
// HIB table's.  Nodes come in power-of-two capacities (4 to 512 slots)
// from mapped arenas; a context whose larger block needs more slots moves
// to a larger node and its old one goes to a free list of its size.
//
// In front of it, each thread adds its blocks' slots into a small cache
// of histograms (HistogramThreadCache, histogram_table.h), without a
// lock or an atomic instruction; a way wanted by another context first
// moves its counts into the table.  A dump must see every cached count
// exactly once, so it empties the caches with the handshake of the HIB
// caches (hib_table.cpp's comment; flush_thread_caches runs the dump's
// half for both):
//
//   thread:  busy = 1; (compiler barrier) if (!flush_requested) add;
//            busy = 0 (release)
//   dump:    flush_requested = 1 for every cache; membarrier; for each
//            cache asked: wait until busy is 0; move the ways into the
//            table; flush_requested = 0
//
// Either the thread sees the request (and adds into the table) or the
// dump sees it busy (and waits for the add to end).  Without membarrier
// (hib_caches_enabled false) threads use the table directly.  A dump
// takes the HIB records before the histograms and a free adds its
// block's slots before its record, so every record a dump takes has its
// slots in the histograms the same dump takes.

#include "histogram_table.h"
#include "hib_cache.h"
#include "internal.h"
#include "per_thread.h"

namespace memprof {

namespace {

constexpr uint32_t kBucketBits = 12;
constexpr uint32_t kNumBuckets = 1u << kBucketBits;
constexpr uint32_t kNumStripes = 64;
constexpr uint32_t kMinCapacityLog2 = 2;
constexpr uint32_t kMaxCapacityLog2 = 9;
static_assert (kHistogramMaxSlots == 1u << kMaxCapacityLog2,
               "largest node holds kHistogramMaxSlots");

struct alignas (64) Stripe
{
  SpinLock lock;
};

HistogramNode *buckets[kNumBuckets];
Stripe stripes[kNumStripes];

SpinLock pool_lock;   // Guards the free lists and the arena.
// Held while caches are emptied into the table (a dump, a thread's
// exit), so only one party at a time moves a cache's ways.
SpinLock caches_lock;
HistogramNode *free_nodes[kMaxCapacityLog2 + 1];
char *arena_cur, *arena_end;

inline uint32_t
bucket_of (uint32_t id)
{
  return (uint32_t) (((uint64_t) id * 0x9e3779b97f4a7c15ULL) >> 52)
         & (kNumBuckets - 1);
}

uint32_t
capacity_log2 (size_t slots)
{
  uint32_t k = kMinCapacityLog2;
  while (((size_t) 1 << k) < slots)
    k++;
  return k;
}

size_t
node_bytes (uint32_t log2)
{
  return sizeof (HistogramNode) + (sizeof (uint64_t) << log2);
}

// A zeroed node of capacity 2^LOG2, or null when out of memory.
HistogramNode *
new_node (uint32_t log2)
{
  HistogramNode *n;
  {
    LockGuard g (pool_lock);
    n = free_nodes[log2];
    if (n)
      free_nodes[log2] = n->next;
    else
      {
        size_t bytes = node_bytes (log2);
        if (!arena_cur || (size_t) (arena_end - arena_cur) < bytes)
          {
            size_t chunk = 1 << 20;
            arena_cur = (char *) map_memory (chunk, false);
            if (!arena_cur)
              {
                arena_end = nullptr;
                return nullptr;
              }
            arena_end = arena_cur + chunk;
          }
        n = (HistogramNode *) arena_cur;
        arena_cur += bytes;
      }
  }
  internal_memset (n, 0, node_bytes (log2));
  n->capacity = 1u << log2;
  return n;
}

void
free_node (HistogramNode *n)
{
  uint32_t log2 = capacity_log2 (n->capacity);
  LockGuard g (pool_lock);
  n->next = free_nodes[log2];
  free_nodes[log2] = n;
}

template <typename Counter>
inline void
add_counts (HistogramNode *n, const Counter *counters, size_t k)
{
  for (size_t i = 0; i < k; i++)
    n->counts[i] += counters[i];
  if (k > n->num_slots)
    n->num_slots = (uint32_t) k;
}

// Add N (at most kHistogramMaxSlots) counts to CONTEXT's histogram in
// the shared table: a block's slot counters, or a cache way's sums.
template <typename Counter>
void
table_add (uint32_t context, const Counter *counters, size_t n)
{
  uint32_t b = bucket_of (context);
  Stripe &s = stripes[b % kNumStripes];
  HistogramNode *fresh = nullptr;
  for (;;)
    {
      s.lock.lock ();
      HistogramNode **link = &buckets[b];
      while (*link && (*link)->context_id != context)
        link = &(*link)->next;
      HistogramNode *old = *link;
      if (old && old->capacity >= n)
        {
          add_counts (old, counters, n);
          s.lock.unlock ();
          if (fresh)
            free_node (fresh);
          return;
        }
      if (fresh && fresh->capacity >= n
          && (!old || fresh->capacity >= old->num_slots))
        {
          // Move the old counts into the larger node in its place.
          fresh->context_id = context;
          if (old)
            {
              for (uint32_t i = 0; i < old->num_slots; i++)
                fresh->counts[i] = old->counts[i];
              fresh->num_slots = old->num_slots;
              fresh->next = old->next;
            }
          else
            fresh->next = nullptr;
          add_counts (fresh, counters, n);
          *link = fresh;
          s.lock.unlock ();
          if (old)
            free_node (old);
          return;
        }
      s.lock.unlock ();
      // Allocate outside the stripe lock, then look again.
      if (fresh)
        free_node (fresh);
      fresh = new_node (capacity_log2 (n));
      if (!fresh)
        return;   // Out of memory: the histogram misses this block.
    }
}

// ---- the threads' caches ------------------------------------------------

// Move way W of C into the table and leave it empty (its counts zero).
void
way_to_table (HistogramThreadCache &c, uint32_t w)
{
  uint32_t k = c.num_slots[w];
  if (!k)
    return;
  uint64_t *counts = c.counts[w];
  table_add (c.context[w], counts, k);
  internal_memset (counts, 0, k * sizeof (uint64_t));
  c.num_slots[w] = 0;
}

void
cache_to_table (HistogramThreadCache &c)
{
  // Written once by the owner (null until its first add).
  if (__atomic_load_n (&c.counts, __ATOMIC_ACQUIRE))
    for (uint32_t w = 0; w < HistogramThreadCache::kWays; w++)
      way_to_table (c, w);
}

// C's counts, mapped on the owner's first add; false when that failed
// (the owner then keeps to the table).
MEMPROF_NOINLINE bool
cache_map (HistogramThreadCache &c)
{
  if (c.unavailable)
    return false;
  void *p = map_memory (sizeof (uint64_t) * kHistogramMaxSlots
                          * HistogramThreadCache::kWays,
                        false);
  if (!p)
    {
      c.unavailable = true;
      return false;
    }
  // Read by a dump only after it saw the owner not busy (acquire).
  __atomic_store_n (&c.counts, (uint64_t (*)[kHistogramMaxSlots]) p,
                    __ATOMIC_RELEASE);
  return true;
}

// CONTEXT is in no way of C: the least recently used way (an empty one
// first) moves its counts into the table and is given to CONTEXT.
MEMPROF_NOINLINE uint32_t
cache_claim (HistogramThreadCache &c, uint32_t context)
{
  uint32_t victim = 0;
  for (uint32_t w = 0; w < HistogramThreadCache::kWays; w++)
    {
      if (!c.num_slots[w])
        {
          victim = w;
          break;
        }
      if ((int32_t) (c.last_use[w] - c.last_use[victim]) < 0)
        victim = w;
    }
  way_to_table (c, victim);
  c.context[victim] = context;
  return victim;
}

// The owner's add into its cache (busy is set, no dump wants it).
inline void
cache_add (HistogramThreadCache &c, uint32_t context,
           const uint32_t *counters, size_t n)
{
  uint32_t w = 0;
  while (w < HistogramThreadCache::kWays
         && (!c.num_slots[w] || c.context[w] != context))
    w++;
  if (UNLIKELY (w == HistogramThreadCache::kWays))
    w = cache_claim (c, context);
  c.last_use[w] = ++c.tick;
  uint64_t *counts = c.counts[w];
  // Eight slots (a granule's worth) at a time, skipping eight that are
  // all zero, as most of a large block's usually are (malloc_window
  // touches 2 of up to 512): the test costs less than the adds.
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint32_t any = 0;
      for (size_t j = 0; j < 8; j++)
        any |= counters[i + j];
      if (any)
        for (size_t j = 0; j < 8; j++)
          counts[i + j] += counters[i + j];
    }
  for (; i < n; i++)
    counts[i] += counters[i];
  if (n > c.num_slots[w])
    c.num_slots[w] = (uint32_t) n;
}

void
cache_move (PerThread *pt)
{
  cache_to_table (pt->histogram);
}

// Every thread's cached counts, moved into the table by a dump.
const ThreadCacheKind histogram_cache_kind
  = { offsetof (PerThread, histogram.busy),
      offsetof (PerThread, histogram.flush_requested), cache_move,
      &caches_lock };

void
drop_cache (PerThread *pt, void *)
{
  HistogramThreadCache &c = pt->histogram;
  if (__atomic_load_n (&c.counts, __ATOMIC_ACQUIRE))
    for (uint32_t w = 0; w < HistogramThreadCache::kWays; w++)
      {
        internal_memset (c.counts[w], 0, c.num_slots[w] * sizeof (uint64_t));
        c.num_slots[w] = 0;
      }
  c.busy = 0;
  c.flush_requested = 0;
}

} // namespace

void
histogram_add (uint32_t context, const uint32_t *counters, size_t n)
{
  if (n > kHistogramMaxSlots)
    n = kHistogramMaxSlots;
  PerThread *pt = __atomic_load_n (&hib_caches_enabled, __ATOMIC_RELAXED)
                    ? per_thread ()
                    : nullptr;
  // Not when the cache is busy already: a signal handler freeing inside
  // an add of the thread it interrupted.
  if (LIKELY (pt != nullptr) && LIKELY (!pt->histogram.busy))
    {
      HistogramThreadCache &c = pt->histogram;
      if (LIKELY (c.counts != nullptr) || cache_map (c))
        {
          __atomic_store_n (&c.busy, 1, __ATOMIC_RELAXED);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          if (LIKELY (!__atomic_load_n (&c.flush_requested,
                                        __ATOMIC_ACQUIRE)))
            {
              cache_add (c, context, counters, n);
              __atomic_store_n (&c.busy, 0, __ATOMIC_RELEASE);
              __atomic_signal_fence (__ATOMIC_SEQ_CST);
              if (UNLIKELY (pt->hib.deferred_signal))
                run_deferred_signal ();
              return;
            }
          __atomic_store_n (&c.busy, 0, __ATOMIC_RELEASE);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          if (UNLIKELY (pt->hib.deferred_signal))
            run_deferred_signal ();
        }
    }
  table_add (context, counters, n);
}

void
histogram_thread_exit (HistogramThreadCache *c)
{
  LockGuard g (caches_lock);
  cache_to_table (*c);
}

void
histogram_after_fork_child ()
{
  per_thread_for_each (drop_cache, nullptr);
}

HistogramNode *
histogram_take ()
{
  HistogramNode *all = nullptr;
  flush_thread_caches (histogram_cache_kind);
  for (uint32_t st = 0; st < kNumStripes; st++)
    {
      stripes[st].lock.lock ();
      for (uint32_t b = st; b < kNumBuckets; b += kNumStripes)
        {
          HistogramNode *n = buckets[b];
          buckets[b] = nullptr;
          while (n)
            {
              HistogramNode *next = n->next;
              n->next = all;
              all = n;
              n = next;
            }
        }
      stripes[st].lock.unlock ();
    }
  return all;
}

void
histogram_recycle (HistogramNode *list)
{
  while (list)
    {
      HistogramNode *next = list->next;
      free_node (list);
      list = next;
    }
}

void
histogram_clear ()
{
  histogram_recycle (histogram_take ());
}

void
histogram_lock_all ()
{
  caches_lock.lock ();
  for (Stripe &s : stripes)
    s.lock.lock ();
  pool_lock.lock ();
}

void
histogram_unlock_all ()
{
  pool_lock.unlock ();
  for (Stripe &s : stripes)
    s.lock.unlock ();
  caches_lock.unlock ();
}

} // namespace memprof
