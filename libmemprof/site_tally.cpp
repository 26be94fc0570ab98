// Exact per-site totals of the sampling mode (see site_tally.h): the
// per-thread tables' slow path, the shared overflow table, and the
// dump's take.

#include "site_tally.h"
#include "per_thread.h"

namespace memprof {

MEMPROF_TLS SiteTallyTable *site_tally_mine;
uint32_t site_tally_generation;

namespace {

// The shared table: sites no thread's table could hold, and the counts
// of exited threads.  Claimed slot by slot with a compare-and-swap on
// the PC, counted with atomic adds; mapped on first use.
struct SharedSlot
{
  uintptr_t pc;
  uint64_t count, bytes;
};
constexpr uint32_t kSharedSlots = 1 << 14;
constexpr uint32_t kSharedProbe = 64;
SharedSlot *shared;
SpinLock shared_map_lock;
uint64_t untallied;

// Orders dumps, resets and thread exits (never the owner's adds).
SpinLock tally_lock;

SharedSlot *
shared_table ()
{
  SharedSlot *t = __atomic_load_n (&shared, __ATOMIC_ACQUIRE);
  if (LIKELY (t != nullptr))
    return t;
  LockGuard g (shared_map_lock);
  if (!shared)
    __atomic_store_n (&shared, (SharedSlot *) map_memory (
                        kSharedSlots * sizeof (SharedSlot), false),
                      __ATOMIC_RELEASE);
  return shared;
}

// Add COUNT allocations of BYTES to PC in the shared table: true when
// PC was not there yet.
bool
shared_add (uintptr_t pc, uint64_t count, uint64_t bytes)
{
  SharedSlot *t = shared_table ();
  if (UNLIKELY (!t))
    {
      __atomic_add_fetch (&untallied, count, __ATOMIC_RELAXED);
      return false;
    }
  uint32_t i = (uint32_t) ((pc * 0x9e3779b97f4a7c15ULL) >> 50);
  for (uint32_t n = 0; n < kSharedProbe; n++, i = (i + 1) & (kSharedSlots - 1))
    {
      SharedSlot &s = t[i];
      uintptr_t seen = __atomic_load_n (&s.pc, __ATOMIC_ACQUIRE);
      bool fresh = false;
      if (seen == 0)
        {
          uintptr_t expected = 0;
          fresh = __atomic_compare_exchange_n (&s.pc, &expected, pc, false,
                                               __ATOMIC_ACQ_REL,
                                               __ATOMIC_ACQUIRE);
          seen = fresh ? pc : expected;
        }
      if (seen != pc)
        continue;
      __atomic_add_fetch (&s.count, count, __ATOMIC_RELAXED);
      __atomic_add_fetch (&s.bytes, bytes, __ATOMIC_RELAXED);
      return fresh;
    }
  __atomic_add_fetch (&untallied, count, __ATOMIC_RELAXED);
  return false;
}

// What slot I of T holds beyond what was taken of it; marks it taken.
void
take_slot (SiteTallyTable *t, uint32_t i, uint64_t *count, uint64_t *bytes)
{
  const volatile SiteTallyTable::Slot &s = t->slots[i];
  uint64_t c = s.count, b = s.bytes;
  *count = c - t->taken[i].count;
  *bytes = b - t->taken[i].bytes;
  t->taken[i].count = c;
  t->taken[i].bytes = b;
}

struct TakeArgs
{
  void (*fn) (uintptr_t, uint64_t, uint64_t, void *);
  void *arg;
};

void
take_thread (PerThread *pt, void *arg)
{
  TakeArgs *a = (TakeArgs *) arg;
  SiteTallyTable *t = &pt->site_tally;
  for (uint32_t i = 0; i < SiteTallyTable::kSlots; i++)
    {
      uintptr_t pc = __atomic_load_n (&t->slots[i].pc, __ATOMIC_ACQUIRE);
      if (!pc)
        continue;
      uint64_t count, bytes;
      take_slot (t, i, &count, &bytes);
      if (count)
        a->fn (pc, count, bytes, a->arg);
    }
}

// Move what T counted beyond what was taken to the shared table and
// empty it.  Under tally_lock.
void
flush_table (SiteTallyTable *t)
{
  for (uint32_t i = 0; i < SiteTallyTable::kSlots; i++)
    {
      uintptr_t pc = t->slots[i].pc;
      if (!pc)
        continue;
      uint64_t count, bytes;
      take_slot (t, i, &count, &bytes);
      if (count)
        shared_add (pc, count, bytes);
    }
  internal_memset (t->slots, 0, sizeof t->slots);
  internal_memset (t->taken, 0, sizeof t->taken);
}

void
reset_thread (PerThread *pt, void *)
{
  SiteTallyTable *t = &pt->site_tally;
  for (uint32_t i = 0; i < SiteTallyTable::kSlots; i++)
    {
      uint64_t count, bytes;
      take_slot (t, i, &count, &bytes);
    }
}

} // namespace

bool
site_tally_add_slow (uintptr_t pc, size_t size)
{
  SiteTallyTable *t = site_tally_mine;
  if (!t)
    {
      PerThread *pt = per_thread ();
      if (!pt)
        return shared_add (pc, 1, size);
      t = site_tally_mine = &pt->site_tally;
    }
  uint32_t generation = __atomic_load_n (&site_tally_generation,
                                         __ATOMIC_ACQUIRE);
  if (UNLIKELY (t->generation != generation))
    {
      // A dump or reset since this table's last use.
      LockGuard g (tally_lock);
      flush_table (t);
      t->generation = __atomic_load_n (&site_tally_generation,
                                       __ATOMIC_RELAXED);
    }
  uint32_t i = site_tally_home (pc);
  for (uint32_t n = 0; n < SiteTallyTable::kProbe;
       n++, i = (i + 1) & (SiteTallyTable::kSlots - 1))
    {
      SiteTallyTable::Slot &s = t->slots[i];
      if (s.pc == pc)
        {
          s.count++;
          s.bytes += size;
          return false;
        }
      if (s.pc == 0)
        {
          s.count = 1;
          s.bytes = size;
          // Published last: a dump reading the slot sees its counts.
          __atomic_store_n (&s.pc, pc, __ATOMIC_RELEASE);
          return true;
        }
    }
  return shared_add (pc, 1, size);
}

void
site_tally_thread_exit (SiteTallyTable *t)
{
  if (site_tally_mine == t)
    site_tally_mine = nullptr;
  LockGuard g (tally_lock);
  flush_table (t);
  t->generation = 0;
}

void
site_tally_take (void (*fn) (uintptr_t, uint64_t, uint64_t, void *),
                 void *arg, uint64_t *untallied_out)
{
  LockGuard g (tally_lock);
  TakeArgs a = { fn, arg };
  per_thread_for_each (take_thread, &a);
  if (SharedSlot *t = __atomic_load_n (&shared, __ATOMIC_ACQUIRE))
    for (uint32_t i = 0; i < kSharedSlots; i++)
      {
        uintptr_t pc = __atomic_load_n (&t[i].pc, __ATOMIC_ACQUIRE);
        if (!pc)
          continue;
        uint64_t count = __atomic_exchange_n (&t[i].count, 0, __ATOMIC_RELAXED);
        uint64_t bytes = __atomic_exchange_n (&t[i].bytes, 0, __ATOMIC_RELAXED);
        if (count)
          fn (pc, count, bytes, arg);
      }
  *untallied_out = __atomic_exchange_n (&untallied, 0, __ATOMIC_RELAXED);
  __atomic_add_fetch (&site_tally_generation, 1, __ATOMIC_RELEASE);
}

void
site_tally_reset ()
{
  LockGuard g (tally_lock);
  per_thread_for_each (reset_thread, nullptr);
  if (SharedSlot *t = __atomic_load_n (&shared, __ATOMIC_ACQUIRE))
    for (uint32_t i = 0; i < kSharedSlots; i++)
      {
        __atomic_store_n (&t[i].count, 0, __ATOMIC_RELAXED);
        __atomic_store_n (&t[i].bytes, 0, __ATOMIC_RELAXED);
      }
  __atomic_store_n (&untallied, 0, __ATOMIC_RELAXED);
  __atomic_add_fetch (&site_tally_generation, 1, __ATOMIC_RELEASE);
}

} // namespace memprof
