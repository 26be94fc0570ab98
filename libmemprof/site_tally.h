// Sampling mode: exact per-site totals.  Every allocation of the
// sampling mode, sampled or not, adds 1 and its size to the tally of its
// site: the PC of its frame 0 (the allocation function's return address
// minus one, as the stack depot stores frame 0), known at the entry
// point without unwinding.  At the dump site_calibration.h scales each
// site's sampled records to these totals.
//
// Each thread tallies into its own open-addressing table (in PerThread,
// kSlots sites, probed linearly up to kProbe slots): no lock, no atomic
// instruction, never malloc.  The common case, a site in its home slot,
// is one hash, one compare and two adds; in the slot after it, one
// compare more.  Overflow: a site that finds no
// free slot among its kProbe is tallied in the shared table with atomic
// adds instead; a site the shared table (kSharedSlots) cannot hold
// either is counted as untallied, and its records stay uncalibrated
// estimates (said at verbosity=1).
//
// The first allocation a thread makes from a site it has no slot for
// yet (since the last dump or reset) is reported as new: the caller
// profiles it with weight 1, outside the Poisson process (sampler.h), so
// every site tallied has at least one context to calibrate.

#ifndef MEMPROF_SITE_TALLY_H
#define MEMPROF_SITE_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

namespace memprof {

struct SiteTallyTable
{
  // The tally period (site_tally_generation) the slots belong to.
  uint32_t generation;
  // 1,024: jsonnet allocates from more frame-0 sites than 256 slots
  // held, and the overflow's atomic adds in the shared table took 5% of
  // its sampled run (the runtime's share of it went from 12% to 3%).
  static constexpr uint32_t kSlots = 1024;
  static constexpr uint32_t kProbe = 8;
  struct Slot
  {
    uintptr_t pc;   // 0: empty.
    uint64_t count, bytes;
  } slots[kSlots];
  // What the last dump (or reset) took of each slot: written by dumps
  // only, under the tally lock, so the owner never writes shared state.
  struct Taken
  {
    uint64_t count, bytes;
  } taken[kSlots];
};

// The calling thread's table, once its slow path found one.
extern MEMPROF_TLS SiteTallyTable *site_tally_mine;

// Counts up at every take and reset: a table of an older period is
// emptied by its owner at its next allocation (what it counted since
// the take moves to the shared table), so each site's first block after
// a dump is profiled again and every dump's sites have records.
extern uint32_t site_tally_generation;

MEMPROF_ALWAYS_INLINE uint32_t
site_tally_home (uintptr_t pc)
{
  static_assert (SiteTallyTable::kSlots == 1024, "home slot is 10 bits");
  return (uint32_t) ((pc * 0x9e3779b97f4a7c15ULL) >> 54);
}

// Tally an allocation of SIZE bytes at site PC: true when the site is new
// to this thread (its block must then be profiled with weight 1).
bool site_tally_add_slow (uintptr_t pc, size_t size);

// The calling thread's slot of site PC when PC is in its home slot or
// the next one (where the slow path puts a site whose home is taken) in
// a table of the current period, else null (the slow path's case).  A
// program's 40-odd sites share a home now and then; with the home slot
// alone the second of them took the slow path on every allocation
// (bignum_deep sampled: 7% of its run in site_tally_add_slow and the
// calls around it).
MEMPROF_ALWAYS_INLINE SiteTallyTable::Slot *
site_tally_home_slot (uintptr_t pc)
{
  SiteTallyTable *t = site_tally_mine;
  if (LIKELY (t != nullptr && t->generation == site_tally_generation))
    {
      uint32_t home = site_tally_home (pc);
      SiteTallyTable::Slot *s = &t->slots[home];
      if (LIKELY (s->pc == pc))
        return s;
      s = &t->slots[(home + 1) & (SiteTallyTable::kSlots - 1)];
      if (s->pc == pc)
        return s;
    }
  return nullptr;
}

MEMPROF_ALWAYS_INLINE void
site_tally_count (SiteTallyTable::Slot *s, size_t size)
{
  s->count++;
  s->bytes += size;
}

MEMPROF_ALWAYS_INLINE bool
site_tally_add (uintptr_t pc, size_t size)
{
  if (SiteTallyTable::Slot *s = site_tally_home_slot (pc))
    {
      site_tally_count (s, size);
      return false;
    }
  return site_tally_add_slow (pc, size);
}

// The site of an allocation whose entry point's frame address is FRAME
// (runtime.h's MEMPROF_FRAME): its return address minus one.
MEMPROF_ALWAYS_INLINE uintptr_t
site_of_frame (uintptr_t frame)
{
  return ((const uintptr_t *) frame)[1] - 1;
}

// Thread exit: its counts move to the shared table and TABLE is left
// empty for the next thread.
void site_tally_thread_exit (SiteTallyTable *table);

// The totals of every site since the last take (or reset), from every
// thread's table and the shared one.  Called by the dump only, which
// holds the dump lock: FN is called once per site with its totals (a
// site tallied by several threads may come several times: the caller
// adds).  UNTALLIED receives the allocations no table could hold.
void site_tally_take (void (*fn) (uintptr_t pc, uint64_t count,
                                  uint64_t bytes, void *arg),
                      void *arg, uint64_t *untallied);

// Reset and fork child: forget every count so far.
void site_tally_reset ();

} // namespace memprof

#endif
