// The per-context histograms of histogram mode: a chained hash table
// keyed by context id, buckets guarded by striped spin locks like the
// HIB table's.  Nodes come in power-of-two capacities (4 to 512 slots)
// from mapped arenas; a context whose larger block needs more slots moves
// to a larger node and its old one goes to a free list of its size.

#include "histogram_table.h"
#include "internal.h"

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

inline void
add_counts (HistogramNode *n, const uint32_t *counters, size_t k)
{
  for (size_t i = 0; i < k; i++)
    n->counts[i] += counters[i];
  if (k > n->num_slots)
    n->num_slots = (uint32_t) k;
}

} // namespace

void
histogram_add (uint32_t context, const uint32_t *counters, size_t n)
{
  if (n > kHistogramMaxSlots)
    n = kHistogramMaxSlots;
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

HistogramNode *
histogram_take ()
{
  HistogramNode *all = nullptr;
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
}

} // namespace memprof
