// The exact path's merge of a freed block into the calling thread's HIB
// cache (hib_table.h, HibThreadCache), inline in the free path: the
// block's life is merged field by field from registers, with no call
// and no BlockLife written to memory and read back.  The handshake with
// a dump is described in hib_table.cpp.

#ifndef MEMPROF_HIB_CACHE_H
#define MEMPROF_HIB_CACHE_H

#include <stdint.h>

#include "hib_table.h"
#include "internal.h"
#include "per_thread.h"

namespace memprof {

// membarrier works: threads merge into their caches (hib_init).
extern bool hib_caches_enabled;

// A block's lifetime in ms (0 if the clock went backwards).
inline uint64_t
lifetime_of (const BlockLife &b)
{
  return b.dealloc_timestamp >= b.alloc_timestamp
           ? b.dealloc_timestamp - b.alloc_timestamp
           : 0;
}

// One value into a total/min/max triple.
inline void
add_sample (uint64_t &total, uint64_t &min, uint64_t &max, uint64_t v)
{
  total += v;
  if (v < min)
    min = v;
  if (v > max)
    max = v;
}

// Merge one block into record M field by field from BLOCK (building a
// whole record for it first costs more than the merge).  Must agree
// with merge_mib (M, init_mib (BLOCK)) of hib_table.cpp; the assertion
// catches a field added to mib_fields.inc but not here.  (The live-heap
// fields, tags 23..28, stay 0 until the dump fills them; sampled_blocks,
// tag 29, stays 0 in the exact mode, the only one merging here.)
static_assert (sizeof (memprof_raw_mib) == 30 * sizeof (uint64_t),
               "merge_block must handle every field of mib_fields.inc");
inline void
merge_block (memprof_raw_mib &m, const BlockLife &b)
{
  m.num_lifetime_overlaps += b.alloc_timestamp < m.dealloc_timestamp;
  m.num_same_alloc_cpu += b.alloc_cpu == m.alloc_cpu_id;
  m.num_same_dealloc_cpu += b.dealloc_cpu == m.dealloc_cpu_id;
  m.alloc_count++;
  add_sample (m.total_access_count, m.min_access_count, m.max_access_count,
              b.access_count);
  add_sample (m.total_size, m.min_size, m.max_size, b.size);
  m.alloc_timestamp = b.alloc_timestamp;
  m.dealloc_timestamp = b.dealloc_timestamp;
  add_sample (m.total_lifetime, m.min_lifetime, m.max_lifetime,
              lifetime_of (b));
  m.alloc_cpu_id = b.alloc_cpu;
  m.dealloc_cpu_id = b.dealloc_cpu;
  m.num_migrated_cpu += b.alloc_cpu != b.dealloc_cpu;
  m.data_type_id = b.data_type_id;
  add_sample (m.total_percent_utilized, m.min_percent_utilized,
              m.max_percent_utilized, b.percent_utilized);
}

// The first slot of the two-way set of context ID: a context may sit
// in either slot of its set, so two busy contexts of one set do not
// evict each other on every free.
inline uint32_t
hib_set_of (uint32_t id)
{
  return (uint32_t) (((uint64_t) id * 0x9e3779b97f4a7c15ULL)
                     >> (64 - HibThreadCache::kSetBits))
         * 2;
}

// LIFE's context is in neither slot of SET: a slot is given to it, its
// previous record joining the shared table (hib_table.cpp).
void hib_cache_miss (HibThreadCache::Slot *set, const BlockLife &life);

// Merge one block into its context's record: into the calling thread's
// cache when it has one (no lock, no atomic instruction), else into the
// shared table.
MEMPROF_ALWAYS_INLINE void
hib_record (const BlockLife &life)
{
  PerThread *pt = __atomic_load_n (&hib_caches_enabled, __ATOMIC_RELAXED)
                    ? per_thread ()
                    : nullptr;
  // Not when the cache is busy already: a signal handler freeing inside
  // a merge of the thread it interrupted.
  if (LIKELY (pt != nullptr) && LIKELY (!pt->hib.busy))
    {
      HibThreadCache &c = pt->hib;
      __atomic_store_n (&c.busy, 1, __ATOMIC_RELAXED);
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      if (LIKELY (!__atomic_load_n (&c.flush_requested, __ATOMIC_ACQUIRE)))
        {
          HibThreadCache::Slot *set = &c.slots[hib_set_of (life.context_id)];
          HibThreadCache::Slot *slot = nullptr;
          for (int way = 0; way < 2; way++)
            if (set[way].mib.alloc_count != 0
                && set[way].mib.stack_id == life.context_id)
              slot = &set[way];
          if (LIKELY (slot != nullptr))
            merge_block (slot->mib, life);
          else
            hib_cache_miss (set, life);
          __atomic_store_n (&c.busy, 0, __ATOMIC_RELEASE);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          if (UNLIKELY (c.deferred_signal))
            run_deferred_signal ();
          return;
        }
      __atomic_store_n (&c.busy, 0, __ATOMIC_RELEASE);
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      if (UNLIKELY (c.deferred_signal))
        run_deferred_signal ();
    }
  hib_record_shared (life);
}

} // namespace memprof

#endif
