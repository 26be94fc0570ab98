// The HIB table: a chained hash table keyed by allocation-context id.
// Buckets are guarded by 256 striped spin locks, so frees of different
// contexts rarely meet on a lock.  It is unbounded (nodes come from
// mapped arenas and are recycled after a dump), so nothing is ever
// evicted or lost.  It grows by linear hashing: when the records
// outnumber the buckets, the inserting thread splits one bucket
// (the next in order) into two, so chains stay short at any number of
// contexts and no insertion ever rehashes the whole table.  A bucket
// and the one it splits into are 2^bits apart, a multiple of 256, so
// both are under the same stripe lock, which is the lock of the low 8
// bits of the context's hash.
//
// In front of it, each thread merges its blocks into a small
// direct-mapped cache of records (HibThreadCache), without a lock or an
// atomic instruction; a slot wanted by another context first moves its
// record into the table.  A dump must see every cached record exactly
// once, so it empties the caches with an asymmetric handshake:
//
//   thread:  busy = 1; (compiler barrier) if (!flush_requested) merge;
//            busy = 0 (release)
//   dump:    flush_requested = 1 for every cache; membarrier (every
//            running thread executes a full barrier); for each cache
//            asked: wait until busy is 0; move the slots into the table;
//            flush_requested = 0
//
// membarrier stands in for the barrier the thread leaves out between
// its store to busy and its load of flush_requested: either the thread
// sees the request (and goes to the table) or the dump sees it busy (and
// waits for the merge to end).  A thread's first cache, made after the
// requests went out, is left alone: its owner merges into it without
// looking, and it held nothing before the dump.  Without membarrier,
// threads use the table directly.

#include "hib_table.h"
#include "hib_cache.h"
#include "internal.h"
#include "per_thread.h"

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace memprof {

namespace {

constexpr int kMinBucketBits = 12;   // Small: tests of 20,000 contexts split.
constexpr int kMaxBucketBits = 24;   // 16 M buckets, 128 MiB reserved.
constexpr uint32_t kNumStripes = 256;

struct alignas (64) Stripe
{
  SpinLock lock;
};

// The bucket array (reserved for reserved_bits, kMaxBucketBits unless
// the address space was short; touched as it grows) and its shape:
// bits << 32 | split.  Buckets below SPLIT have been split: they use
// one more bit of the hash.  Changed only with the stripe lock of the
// bucket being split held.
HibNode **buckets;
uint32_t reserved_bits;
SpinLock buckets_init_lock;
uint64_t shape = (uint64_t) kMinBucketBits << 32;
Stripe stripes[kNumStripes];

// Records in the table (changed only when a context first appears and by
// hib_take): an empty table is taken without visiting its buckets.
uint64_t num_records;

// Blocks whose record found no memory (counted, reported at the dump).
uint64_t lost_blocks;

SpinLock node_lock;        // Guards the node pool below.
// Held while caches are emptied into the table (a dump, a thread's
// exit), so only one party at a time moves a cache's slots.
SpinLock caches_lock;
HibNode *free_nodes;
char *pool_cur, *pool_end;

inline uint32_t
hash_of (uint64_t id)
{
  return (uint32_t) ((id * 0x9e3779b97f4a7c15ULL) >> 32);
}

inline Stripe &
stripe_of (uint32_t h)
{
  return stripes[h % kNumStripes];
}

inline uint32_t
shape_buckets (uint64_t sh)
{
  return (1u << (sh >> 32)) + (uint32_t) sh;
}

// The bucket of hash H (its stripe lock held, so the shape read is
// final for it: only a split of this very bucket would change it).
inline uint32_t
bucket_of (uint32_t h)
{
  uint64_t sh = __atomic_load_n (&shape, __ATOMIC_ACQUIRE);
  uint32_t bits = (uint32_t) (sh >> 32);
  uint32_t b = h & ((1u << bits) - 1);
  if (b < (uint32_t) sh)
    b = h & ((2u << bits) - 1);
  return b;
}

// The bucket array, reserved by hib_init (before the program can lower
// its address-space limit: a prlimit --as that left less than the 128
// MiB reservation lost every record at the dump) or on first use, as
// large as the address space allows; null if even the smallest failed.
HibNode **
bucket_array ()
{
  HibNode **a = __atomic_load_n (&buckets, __ATOMIC_ACQUIRE);
  if (LIKELY (a != nullptr))
    return a;
  LockGuard g (buckets_init_lock);
  for (int bits = kMaxBucketBits; !buckets && bits >= kMinBucketBits;
       bits -= 2)
    if (void *m = map_memory (sizeof (HibNode *) << bits, true))
      {
        reserved_bits = (uint32_t) bits;
        __atomic_store_n (&buckets, (HibNode **) m, __ATOMIC_RELEASE);
      }
  return buckets;
}

// A block's record was dropped for want of memory.
void
lose_blocks (const memprof_raw_mib &m)
{
  __atomic_add_fetch (&lost_blocks, m.alloc_count, __ATOMIC_RELAXED);
}

// Split the next bucket if the records outnumber the buckets.
void
maybe_split (HibNode **a)
{
  uint64_t sh = __atomic_load_n (&shape, __ATOMIC_ACQUIRE);
  uint32_t bits = (uint32_t) (sh >> 32);
  if (__atomic_load_n (&num_records, __ATOMIC_RELAXED)
        <= (uint64_t) shape_buckets (sh)
      || bits >= reserved_bits)
    return;
  uint32_t from = (uint32_t) sh;
  Stripe &s = stripes[from % kNumStripes];
  LockGuard g (s.lock);
  uint64_t next = from + 1 == (1u << bits) ? (uint64_t) (bits + 1) << 32
                                            : sh + 1;
  // Another thread split it first: it will do the next one.
  if (!__atomic_compare_exchange_n (&shape, &sh, next, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  HibNode *stay = nullptr, *move = nullptr;
  for (HibNode *n = a[from], *following; n; n = following)
    {
      following = n->next;
      HibNode *&list = hash_of (n->mib.stack_id) >> bits & 1 ? move : stay;
      n->next = list;
      list = n;
    }
  a[from] = stay;
  a[from + (1u << bits)] = move;
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
      // 1 MiB at a time; 64 KiB when the address space is short.
      size_t chunk = 1 << 20;
      pool_cur = (char *) map_memory (chunk, false);
      if (!pool_cur)
        pool_cur = (char *) map_memory (chunk = 1 << 16, false);
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
  uint64_t lifetime = lifetime_of (b);
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
  // The live-heap fields are filled at the dump (live_heap.h).
  m.bytes_at_peak = m.blocks_at_peak = 0;
  m.max_live_bytes = m.max_live_blocks = 0;
  m.bytes_at_exit = m.blocks_at_exit = 0;
  m.sampled_blocks = 0;     // hib_record_weighted's.
}

// The first block of an aggregate, for the comparison fields; WEIGHT:
// how many blocks it stands for (a sampled block's, sampler.h).
struct FirstBlock
{
  uint64_t alloc_timestamp, alloc_cpu, dealloc_cpu;
  uint64_t weight = 1;
};

// Fold ADD (an aggregate whose first block is FIRST) into OLD, as if its
// blocks were merged one by one after OLD's last block: the comparison
// fields compare FIRST with OLD's last block and add ADD's own counts;
// every other field combines by its rule in mib_fields.inc.
void
merge_mib (memprof_raw_mib &old, const memprof_raw_mib &add,
           const FirstBlock &first)
{
  uint64_t overlaps
    = (first.alloc_timestamp < old.dealloc_timestamp) * first.weight;
  uint64_t same_alloc = (first.alloc_cpu == old.alloc_cpu_id) * first.weight;
  uint64_t same_dealloc
    = (first.dealloc_cpu == old.dealloc_cpu_id) * first.weight;
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

// Merge the aggregate M (first block FIRST) into the shared table.
void
table_merge (const memprof_raw_mib &m, const FirstBlock &first)
{
  HibNode **a = bucket_array ();
  if (!a)
    {
      lose_blocks (m);   // Out of memory: counted, said at the dump.
      return;
    }
  uint32_t h = hash_of (m.stack_id);
  Stripe &s = stripe_of (h);
  s.lock.lock ();
  uint32_t b = bucket_of (h);
  for (HibNode *n = a[b]; n; n = n->next)
    if (n->mib.stack_id == m.stack_id)
      {
        merge_mib (n->mib, m, first);
        s.lock.unlock ();
        return;
      }
  // A new context: its node is taken under the stripe lock (node_lock
  // nests inside it, as in hib_lock_all), so the chain is searched once.
  HibNode *fresh = new_node ();
  if (fresh)
    {
      fresh->mib = m;
      fresh->next = a[b];
      a[b] = fresh;
      __atomic_add_fetch (&num_records, 1, __ATOMIC_RELAXED);
    }
  s.lock.unlock ();
  if (!fresh)
    {
      lose_blocks (m);   // Out of memory: counted, said at the dump.
      return;
    }
  maybe_split (a);
}

void
slot_to_table (HibThreadCache::Slot &slot)
{
  if (!slot.mib.alloc_count)
    return;
  FirstBlock first = { slot.first_alloc_timestamp, slot.first_alloc_cpu,
                       slot.first_dealloc_cpu };
  table_merge (slot.mib, first);
  slot.mib.alloc_count = 0;
}

void
cache_to_table (HibThreadCache &c)
{
  for (HibThreadCache::Slot &slot : c.slots)
    slot_to_table (slot);
}

// The word at OFFSET in PT.
inline volatile uint32_t *
word_at (PerThread *pt, size_t offset)
{
  return (volatile uint32_t *) ((char *) pt + offset);
}

void
request_flush (PerThread *pt, void *arg)
{
  const ThreadCacheKind &kind = *(const ThreadCacheKind *) arg;
  __atomic_store_n (word_at (pt, kind.flush_requested), 1, __ATOMIC_RELAXED);
}

void
flush_requested_cache (PerThread *pt, void *arg)
{
  const ThreadCacheKind &kind = *(const ThreadCacheKind *) arg;
  volatile uint32_t *busy = word_at (pt, kind.busy);
  volatile uint32_t *requested = word_at (pt, kind.flush_requested);
  // Made after the requests went out: its owner is adding into it
  // without looking (and it held nothing before the dump).
  if (!__atomic_load_n (requested, __ATOMIC_RELAXED))
    return;
  Waiter w;
  while (__atomic_load_n (busy, __ATOMIC_ACQUIRE))
    {
      sched_yield ();   // Its owner is inside an add (or preempted there).
      w.pause ();
    }
  kind.move (pt);
  __atomic_store_n (requested, 0, __ATOMIC_RELEASE);
}

void
hib_move (PerThread *pt)
{
  cache_to_table (pt->hib);
}

// Every thread's cached records, moved into the table by a dump.
const ThreadCacheKind hib_cache_kind
  = { offsetof (PerThread, hib.busy),
      offsetof (PerThread, hib.flush_requested), hib_move, &caches_lock };

void
drop_cache (PerThread *pt, void *)
{
  HibThreadCache &c = pt->hib;
  for (HibThreadCache::Slot &slot : c.slots)
    slot.mib.alloc_count = 0;
  c.busy = 0;
  c.flush_requested = 0;
}

bool
register_membarrier ()
{
  long cmds = syscall (SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
    return false;
  return syscall (SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
                  0, 0)
         == 0;
}

} // namespace

// membarrier works: threads use their caches.
bool hib_caches_enabled;

void
hib_init ()
{
  __atomic_store_n (&hib_caches_enabled, register_membarrier (),
                    __ATOMIC_RELEASE);
  bucket_array ();
}

uint64_t
hib_take_lost_blocks ()
{
  return __atomic_exchange_n (&lost_blocks, 0, __ATOMIC_RELAXED);
}

bool
hib_have_membarrier ()
{
  return __atomic_load_n (&hib_caches_enabled, __ATOMIC_ACQUIRE);
}

void
membarrier_all_threads ()
{
  if (syscall (SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    die ("membarrier failed after registration");
}

void
flush_thread_caches (const ThreadCacheKind &kind)
{
  if (!__atomic_load_n (&hib_caches_enabled, __ATOMIC_ACQUIRE))
    return;
  LockGuard g (*kind.lock);
  per_thread_for_each (request_flush, (void *) &kind);
  membarrier_all_threads ();
  per_thread_for_each (flush_requested_cache, (void *) &kind);
}

void
hib_cache_miss (HibThreadCache::Slot *set, const BlockLife &life)
{
  // An empty way, else the second one (the first keeps the context that
  // came first).
  HibThreadCache::Slot *slot = set[0].mib.alloc_count == 0 ? &set[0] : &set[1];
  slot_to_table (*slot);
  init_mib (slot->mib, life);
  slot->first_alloc_timestamp = life.alloc_timestamp;
  slot->first_alloc_cpu = life.alloc_cpu;
  slot->first_dealloc_cpu = life.dealloc_cpu;
}

void
hib_merge_records (memprof_raw_mib &into, const memprof_raw_mib &add)
{
  // Two aggregates of one context over the same time: no comparison of
  // one's first block with the other's last.
  FirstBlock none = { 0, 0, 0, 0 };
  merge_mib (into, add, none);
}

void
hib_record_shared (const BlockLife &life)
{
  memprof_raw_mib m;
  init_mib (m, life);
  FirstBlock first = { life.alloc_timestamp, life.alloc_cpu,
                       life.dealloc_cpu };
  table_merge (m, first);
}

void
hib_record_weighted (const BlockLife &life, uint64_t weight)
{
  memprof_raw_mib m;
  init_mib (m, life);
#define WEIGHT_SUM(F) m.F *= weight;
#define WEIGHT_MIN(F)
#define WEIGHT_MAX(F)
#define WEIGHT_LAST(F)
#define MEMPROF_MIB_FIELD(TAG, NAME, MERGE) WEIGHT_##MERGE (NAME)
#include "memprof/mib_fields.inc"
#undef MEMPROF_MIB_FIELD
#undef WEIGHT_SUM
#undef WEIGHT_MIN
#undef WEIGHT_MAX
#undef WEIGHT_LAST
  m.sampled_blocks = 1;     // Whatever the weight: one block recorded.
  FirstBlock first = { life.alloc_timestamp, life.alloc_cpu,
                       life.dealloc_cpu, weight };
  table_merge (m, first);
}

void
hib_thread_exit (HibThreadCache *c)
{
  LockGuard g (caches_lock);
  cache_to_table (*c);
}

void
hib_after_fork_child ()
{
  per_thread_for_each (drop_cache, nullptr);
  // The child may need its own registration; without one it keeps to
  // the table (it is single-threaded now, and every cache is empty).
  hib_init ();
}

HibNode *
hib_take (HibNode **tail, uint64_t *count)
{
  HibNode *all = nullptr, *last = nullptr;
  uint64_t taken = 0;
  flush_thread_caches (hib_cache_kind);
  HibNode **a = __atomic_load_n (&buckets, __ATOMIC_ACQUIRE);
  if (a && __atomic_load_n (&num_records, __ATOMIC_RELAXED))
    for (uint32_t st = 0; st < kNumStripes; st++)
      {
        stripes[st].lock.lock ();
        // This stripe's buckets grow only under its lock.
        uint32_t nb = shape_buckets (__atomic_load_n (&shape,
                                                      __ATOMIC_ACQUIRE));
        for (uint32_t b = st; b < nb; b += kNumStripes)
          {
            HibNode *n = a[b];
            a[b] = nullptr;
            while (n)
              {
                HibNode *next = n->next;
                if (!all)
                  last = n;
                n->next = all;
                all = n;
                n = next;
                taken++;
              }
          }
        stripes[st].lock.unlock ();
      }
  __atomic_sub_fetch (&num_records, taken, __ATOMIC_RELAXED);
  if (tail)
    *tail = last;
  if (count)
    *count = taken;
  return all;
}

void
hib_recycle (HibNode *list, HibNode *last)
{
  if (!list)
    return;
  if (!last)
    for (last = list; last->next; last = last->next)
      ;
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
  caches_lock.lock ();
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
  caches_lock.unlock ();
}

} // namespace memprof
