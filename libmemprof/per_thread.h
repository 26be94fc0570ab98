// Per-thread lookaside caches of the allocation path: small enough to
// stay in L1, so the common allocation never reaches the shared tables
// (the unwinder's rule cache, the stack depot).  Their entries are facts
// (a PC's frame rule, a stack's id), never state that must be flushed:
// a thread's caches are recycled as they are when it exits.

#ifndef MEMPROF_PER_THREAD_H
#define MEMPROF_PER_THREAD_H

#include <stdint.h>

#include "frame_rule.h"
#include "hib_table.h"
#include "histogram_table.h"
#include "internal.h"
#include "live_heap.h"
#include "site_tally.h"
#include "stack_cache.h"

namespace memprof {

struct PerThread
{
  // unwind.cpp: PC -> packed frame rule (0 = empty slot).
  static constexpr uint32_t kRuleSlots = 256;
  struct RuleSlot
  {
    uintptr_t pc;
    uint64_t packed;
  } rules[kRuleSlots];

  // unwind.cpp: recent walks, the words they read, their stacks' ids.
  StackCache stack_cache;

  // stack_depot.cpp: stack hash -> depot id (0 = empty slot).
  static constexpr uint32_t kStackSlots = 128;
  struct StackSlot
  {
    uint64_t hash;
    uint32_t id;
    uint32_t unused;
  } stacks[kStackSlots];

  // hib_table.cpp: the records of the contexts this thread freed
  // blocks of most recently.
  HibThreadCache hib;

  // histogram_table.cpp: histogram mode's per-context slot counts of
  // the blocks this thread freed most recently (mapped on first use).
  HistogramThreadCache histogram;

  // live_heap.cpp: the changes to the live heap this thread holds back
  // while several threads allocate.
  LiveThreadCache live;

  // site_tally.cpp: the sampling mode's exact per-site totals.
  SiteTallyTable site_tally;

  // module_table.h: the module generation the caches above were
  // filled in; PCs and their rules mean nothing in another.
  uint32_t module_generation;

  // block_claim.h: nonzero while this thread claims a block with plain
  // memory operations.
  uint32_t claim_busy;

  PerThread *next_free;
  PerThread *next_all;   // Every PerThread ever made, for dumps.

  // signal_dump.cpp: the alternate signal stack of the thread using these
  // caches (mapped on first use, passed on with them).
  void *alt_stack;
};

// The calling thread's caches, made on first use; null while the thread
// is exiting or when no memory could be mapped (callers then go to the
// shared tables directly).  Inline: one initial-exec TLS load when made.
extern MEMPROF_TLS PerThread *per_thread_mine;
PerThread *per_thread_make ();
inline PerThread *
per_thread ()
{
  PerThread *pt = per_thread_mine;
  if (LIKELY (pt != nullptr))
    return pt;
  return per_thread_make ();
}
// The calling thread's caches if it has them already, else null: never
// makes them (safe in a signal handler).
inline PerThread *
per_thread_if_made ()
{
  return per_thread_mine;
}

// Empty PT's caches of PCs, stacks and frame rules, which were filled in
// an earlier module generation, and note GENERATION as PT's.
void per_thread_forget_code (PerThread *pt, uint32_t generation);

// Call FN for every PerThread ever made (in use or free).  The list only
// grows, so this takes no lock and may run beside any thread.
void per_thread_for_each (void (*fn) (PerThread *pt, void *arg), void *arg);

// Fork: hold the pool's lock across fork.
void per_thread_lock ();
void per_thread_unlock ();

} // namespace memprof

#endif
