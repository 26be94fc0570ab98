// The HIB table: a chained hash table keyed by allocation-context id.
// Buckets are guarded by 256 striped spin locks, so frees of different
// contexts rarely meet on a lock and no single lock is taken on every
// free.  It is unbounded (nodes come from mapped arenas and are recycled
// after a dump), so nothing is ever evicted or lost.

#include "hib_table.h"
#include "internal.h"

namespace memprof {

namespace {

constexpr int kBucketBits = 16;
constexpr uint32_t kNumBuckets = 1u << kBucketBits;
constexpr uint32_t kNumStripes = 256;

struct alignas (64) Stripe
{
  SpinLock lock;
};

HibNode *buckets[kNumBuckets];
Stripe stripes[kNumStripes];

// Records in the table (changed only when a context first appears and by
// hib_take): an empty table is taken without visiting its buckets.
uint64_t num_records;

SpinLock node_lock;        // Guards the node pool below.
HibNode *free_nodes;
char *pool_cur, *pool_end;

inline uint32_t
bucket_of (uint32_t id)
{
  return (uint32_t) (((uint64_t) id * 0x9e3779b97f4a7c15ULL) >> 40)
         & (kNumBuckets - 1);
}

HibNode *
new_node ()
{
  LockGuard g (node_lock);
  HibNode *n = free_nodes;
  if (n)
    {
      free_nodes = n->next;
      return n;
    }
  if (pool_cur + sizeof (HibNode) > pool_end)
    {
      size_t chunk = 1 << 20;
      pool_cur = (char *) map_memory (chunk, false);
      if (!pool_cur)
        {
          pool_end = nullptr;
          return nullptr;
        }
      pool_end = pool_cur + chunk;
    }
  n = (HibNode *) pool_cur;
  pool_cur += sizeof (HibNode);
  return n;
}

void
init_mib (memprof_raw_mib &m, const BlockLife &b)
{
  uint64_t lifetime = b.dealloc_timestamp >= b.alloc_timestamp
                        ? b.dealloc_timestamp - b.alloc_timestamp
                        : 0;
  m.stack_id = b.context_id;
  m.alloc_count = 1;
  m.total_access_count = m.min_access_count = m.max_access_count
    = b.access_count;
  m.total_size = m.min_size = m.max_size = b.size;
  m.alloc_timestamp = b.alloc_timestamp;
  m.dealloc_timestamp = b.dealloc_timestamp;
  m.total_lifetime = m.min_lifetime = m.max_lifetime = lifetime;
  m.alloc_cpu_id = b.alloc_cpu;
  m.dealloc_cpu_id = b.dealloc_cpu;
  m.num_migrated_cpu = b.alloc_cpu != b.dealloc_cpu;
  m.num_lifetime_overlaps = 0;
  m.num_same_alloc_cpu = 0;
  m.num_same_dealloc_cpu = 0;
  m.data_type_id = b.data_type_id;
  m.total_percent_utilized = m.min_percent_utilized
    = m.max_percent_utilized = b.percent_utilized;
}

// Fold NEW (one block, or an aggregate) into OLD.  The comparison
// fields look at the previous record's last block first; then every
// field combines by its rule in mib_fields.inc.
void
merge_mib (memprof_raw_mib &old, const memprof_raw_mib &add)
{
  uint64_t overlaps = add.alloc_timestamp < old.dealloc_timestamp;
  uint64_t same_alloc = add.alloc_cpu_id == old.alloc_cpu_id;
  uint64_t same_dealloc = add.dealloc_cpu_id == old.dealloc_cpu_id;
#define MERGE_SUM(F) old.F += add.F;
#define MERGE_MIN(F) if (add.F < old.F) old.F = add.F;
#define MERGE_MAX(F) if (add.F > old.F) old.F = add.F;
#define MERGE_LAST(F) old.F = add.F;
#define MEMPROF_MIB_FIELD(TAG, NAME, MERGE) MERGE_##MERGE (NAME)
#include "memprof/mib_fields.inc"
#undef MEMPROF_MIB_FIELD
#undef MERGE_SUM
#undef MERGE_MIN
#undef MERGE_MAX
#undef MERGE_LAST
  old.num_lifetime_overlaps += overlaps;
  old.num_same_alloc_cpu += same_alloc;
  old.num_same_dealloc_cpu += same_dealloc;
}

} // namespace

void
hib_record (const BlockLife &life)
{
  memprof_raw_mib m;
  init_mib (m, life);
  uint32_t b = bucket_of (life.context_id);
  Stripe &s = stripes[b % kNumStripes];
  s.lock.lock ();
  for (HibNode *n = buckets[b]; n; n = n->next)
    if (n->mib.stack_id == m.stack_id)
      {
        merge_mib (n->mib, m);
        s.lock.unlock ();
        return;
      }
  s.lock.unlock ();
  // Allocate outside the stripe lock, then look again: another thread
  // may have inserted this context meanwhile.
  HibNode *fresh = new_node ();
  if (!fresh)
    return;   // Out of memory: nothing sensible left to do.
  s.lock.lock ();
  for (HibNode *n = buckets[b]; n; n = n->next)
    if (n->mib.stack_id == m.stack_id)
      {
        merge_mib (n->mib, m);
        s.lock.unlock ();
        fresh->next = nullptr;
        hib_recycle (fresh);
        return;
      }
  fresh->mib = m;
  fresh->next = buckets[b];
  buckets[b] = fresh;
  __atomic_add_fetch (&num_records, 1, __ATOMIC_RELAXED);
  s.lock.unlock ();
}

HibNode *
hib_take ()
{
  HibNode *all = nullptr;
  if (!__atomic_load_n (&num_records, __ATOMIC_RELAXED))
    return nullptr;
  for (uint32_t st = 0; st < kNumStripes; st++)
    {
      stripes[st].lock.lock ();
      for (uint32_t b = st; b < kNumBuckets; b += kNumStripes)
        {
          HibNode *n = buckets[b];
          buckets[b] = nullptr;
          while (n)
            {
              HibNode *next = n->next;
              n->next = all;
              all = n;
              n = next;
              __atomic_sub_fetch (&num_records, 1, __ATOMIC_RELAXED);
            }
        }
      stripes[st].lock.unlock ();
    }
  return all;
}

void
hib_recycle (HibNode *list)
{
  if (!list)
    return;
  HibNode *last = list;
  while (last->next)
    last = last->next;
  LockGuard g (node_lock);
  last->next = free_nodes;
  free_nodes = list;
}

void
hib_clear ()
{
  hib_recycle (hib_take ());
}

void
hib_lock_all ()
{
  for (Stripe &s : stripes)
    s.lock.lock ();
  node_lock.lock ();
}

void
hib_unlock_all ()
{
  node_lock.unlock ();
  for (Stripe &s : stripes)
    s.lock.unlock ();
}

void
hib_reset_locks_after_fork ()
{
  hib_unlock_all ();
}

} // namespace memprof
