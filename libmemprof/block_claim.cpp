// The heap walk's half of the claim handshake (block_claim.h).

#include "block_claim.h"
#include "hib_table.h"

#include <sched.h>

namespace memprof {

uint32_t plain_claims;

namespace {

bool claims_may_be_plain;   // membarrier works.

// Wait until PT's owner is out of a plain claim.  Not for the calling
// thread's own caches: a dump in a signal handler may have interrupted
// its own thread's claim, which cannot go on while the dump runs.
void
wait_claim_done (PerThread *pt, void *self)
{
  if (pt == self)
    return;
  Waiter w;
  while (__atomic_load_n (&pt->claim_busy, __ATOMIC_ACQUIRE))
    {
      sched_yield ();   // Its owner is inside a claim (or preempted there).
      w.pause ();
    }
}

void
clear_claim (PerThread *pt, void *)
{
  pt->claim_busy = 0;
}

} // namespace

void
block_claim_init (bool have_membarrier)
{
  claims_may_be_plain = have_membarrier;
  __atomic_store_n (&plain_claims, have_membarrier, __ATOMIC_RELEASE);
}

void
heap_walk_begin ()
{
  if (!claims_may_be_plain)
    return;
  __atomic_store_n (&plain_claims, 0, __ATOMIC_RELAXED);
  membarrier_all_threads ();
  per_thread_for_each (wait_claim_done, per_thread_if_made ());
}

void
heap_walk_end ()
{
  if (claims_may_be_plain)
    __atomic_store_n (&plain_claims, 1, __ATOMIC_RELEASE);
}

void
block_claim_after_fork_child ()
{
  per_thread_for_each (clear_claim, nullptr);
}

} // namespace memprof
