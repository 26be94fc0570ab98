// The live heap over time (see live_heap.h).

#include "live_heap.h"
#include "clock_cpu.h"
#include "stack_depot.h"

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
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
} // namespace

void
live_init (bool have_membarrier)
{
  if (!have_membarrier)
    __atomic_store_n (&live_threaded, true, __ATOMIC_RELEASE);
}

// A thread's first update.  The first thread needs nothing; the second
// switches every thread to the atomic counters (see live_heap.h).
void
live_register_thread ()
{
  live_thread_seen = true;
  LockGuard g (register_lock);
  if (++threads_seen < 2 || __atomic_load_n (&live_threaded, __ATOMIC_RELAXED))
    return;
  __atomic_store_n (&live_threaded, true, __ATOMIC_SEQ_CST);
  if (syscall (SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    die ("membarrier failed after registration");
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
  while (bytes > seen)
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

} // namespace

void
live_fill_records (HibNode *records)
{
  uint64_t generation
    = __atomic_load_n (&live_heap.generation, __ATOMIC_RELAXED);
  for (HibNode *n = records; n; n = n->next)
    {
      memprof_raw_mib &m = n->mib;
      ContextLive *c = depot_live ((uint32_t) m.stack_id);
      if (!c)
        continue;
      bool current = c->peak_generation == generation;
      m.bytes_at_peak = current ? c->peak_bytes : c->bytes;
      m.blocks_at_peak = whole_blocks (current ? c->peak_blocks : c->blocks);
      m.max_live_bytes = c->max_bytes;
      m.max_live_blocks = whole_blocks (c->max_blocks);
      m.bytes_at_exit = c->exit_bytes;
      m.blocks_at_exit = whole_blocks (c->exit_blocks);
      c->exit_bytes = c->exit_blocks = 0;
    }
}

} // namespace memprof
