// Claiming a block for its end of life (free, realloc) against a dump
// that walks the heap and claims live blocks to report them.  Whoever
// moves the header's state away from kChunkAllocated records the block;
// the other leaves it alone, so nothing is counted twice.
//
// A locked exchange per free made the claim a tenth of a tiny-block
// program's run (it drains the store buffer, and on a cold header it
// stalls until the line arrives).  Heap walks are rare, so a free
// claims with a plain load and store unless one is running, by the same
// asymmetric handshake as the thread caches (hib_table.cpp):
//
//   free:  claim_busy++; (compiler barrier) if (plain_claims) { load
//          state; store kChunkFree } else exchange; claim_busy--
//   walk:  plain_claims = 0; membarrier (every running thread executes
//          a full barrier); wait until each thread's claim_busy is 0;
//          walk with compare-and-swap; plain_claims = 1
//
// Either the free sees the walk coming (and exchanges) or the walk sees
// it busy and waits for its store.  Without membarrier, every claim
// exchanges.  Two threads freeing one block at once (a double free the
// program races with itself) may both win a plain claim; a double free
// in one thread is still found.

#ifndef MEMPROF_BLOCK_CLAIM_H
#define MEMPROF_BLOCK_CLAIM_H

#include <stdint.h>

#include "chunk_header.h"
#include "internal.h"
#include "per_thread.h"

namespace memprof {

// Nonzero: no heap walk is running and membarrier works.
extern uint32_t plain_claims;

// Claim block H for its end of life: its state becomes kChunkFree.  The
// state it had, or kChunkFree when it was not a live block (a double
// or invalid free), in which case it is left as it was.
MEMPROF_ALWAYS_INLINE uint8_t
claim_live (ChunkHeader *h)
{
  PerThread *pt = per_thread_if_made ();
  if (LIKELY (pt != nullptr))
    {
      // A signal handler freeing inside this section leaves the count
      // as it found it, so a plain increment will do.
      pt->claim_busy++;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      if (LIKELY (__atomic_load_n (&plain_claims, __ATOMIC_RELAXED)))
        {
          uint8_t old = __atomic_load_n (&h->state, __ATOMIC_RELAXED);
          bool live = old == kChunkAllocated || old == kChunkReported;
          if (LIKELY (live))
            __atomic_store_n (&h->state, kChunkFree, __ATOMIC_RELAXED);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          __atomic_store_n (&pt->claim_busy, pt->claim_busy - 1,
                            __ATOMIC_RELEASE);
          return live ? old : (uint8_t) kChunkFree;
        }
      __atomic_store_n (&pt->claim_busy, pt->claim_busy - 1,
                        __ATOMIC_RELEASE);
    }
  uint8_t old = __atomic_exchange_n (&h->state, kChunkFree, __ATOMIC_ACQ_REL);
  if (LIKELY (old == kChunkAllocated || old == kChunkReported))
    return old;
  if (old != kChunkFree)
    __atomic_store_n (&h->state, old, __ATOMIC_RELEASE);
  return kChunkFree;
}

// Start-up (and a forked child): plain claims when membarrier works.
void block_claim_init (bool have_membarrier);
// The walk's half of the handshake, around a walk of every block.  With
// the dump lock held (or in a forked child).
void heap_walk_begin ();
void heap_walk_end ();
// Forked child: the other threads are gone, mid-claim or not.
void block_claim_after_fork_child ();

} // namespace memprof

#endif
