// Sampling mode, at the dump: the sampled records of each site (frame 0's
// PC) are scaled so that their allocation counts and bytes add up to the
// site's exact tally (site_tally.h): a calibration estimator per site
// (post-stratification by frame-0 site, with the block size as second
// auxiliary variable).
//
// For a site with exact totals N allocations and B bytes whose records c
// hold A_c weighted allocations and S_c weighted bytes (sums A, S), every
// additive field of record c (alloc_count, total_size, the access,
// lifetime, utilisation, CPU and overlap sums) is multiplied by one
// factor g_c = alpha + beta * S_c / A_c, alpha and beta chosen so that
// sum g_c A_c = N and sum g_c S_c = B (the linear calibration, or GREG,
// estimator: the records' mean size, lifetime and accesses per block
// stay as sampled).  When that has no solution with every g_c > 0 (all
// records of about one mean size, or noise), the counts are multiplied
// by N / A and bytes and accesses by B / S (two ratio estimators).
// Each field is rounded at random and systematically over the site's
// records (one uniform offset per site, cumulative sums rounded), so a
// record's value is right in expectation and the site's alloc_count sums
// to N and its total_size to B exactly.  Every record keeps at least one
// allocation (each stands for at least one real block).  The live heap
// fields (at the peak, at most, at exit) are scaled by the same factors,
// rounded, and capped at the record's calibrated alloc_count and
// total_size; a context's that has weight-1 blocks too hold theirs,
// which stay as they are (up to all those blocks hold), and are capped
// at both records' totals.  Minima, maxima and timestamps stay as
// sampled.
//
// The sampling mode's weight-1 blocks (a site's first in each thread,
// outside the Poisson process) are no sample of the site: they are
// certainty units, recorded apart and not scaled; the other records
// are scaled to the site's tally less those blocks.  A record whose
// site has no tally (or a site holding more records than allocations,
// only when a dump races other threads' allocations) is left as the
// sampler weighted it.

#ifndef MEMPROF_SITE_CALIBRATION_H
#define MEMPROF_SITE_CALIBRATION_H

#include <stdint.h>

#include "hib_table.h"

namespace memprof {

struct CalibrationStats
{
  uint64_t sites;              // Sites calibrated.
  uint64_t records;            // Records calibrated.
  uint64_t records_left;       // Records left as weighted.
  uint64_t lost_allocations;   // Tallied at sites no record has, or
  uint64_t lost_bytes;         // untallied (tables full).
};

// Calibrate RECORDS in place; false (nothing changed) when no memory
// could be mapped for the per-site sums.  Records of weight-1 blocks
// (kCertainContext) are certainty units: left as they are, and the
// site's other records scaled to the tally less theirs; a site with no
// other record leaves the rest of its tally to no one (lost).
bool site_calibrate (HibNode *records, CalibrationStats *stats);

// Before the live heap's fields are filled: each record of weight-1
// blocks gets its partner, the record of its context's sampled blocks
// (null: none), and that record gets it as its partner.
void certain_pair (HibNode *records);

// After calibration: each record of weight-1 blocks is merged into its
// partner and taken out of *RECORDS (*TAIL, if given, kept the list's
// last), or without a partner becomes its context's record.  Returns
// the merged ones, a list to recycle.
HibNode *certain_merge (HibNode **records, HibNode **tail);

// The live heap's estimates of the final RECORDS kept within what the
// profile knows: a context lived at least its largest block at once
// (a block of 8 MiB under a "max 2 MiB live" read as nonsense), and at
// a moment held no more than its maximum; in a profile of the whole
// run (WHOLE_RUN: the first dump), no context's maximum, and not the
// process's peak (*PEAK_BYTES, *PEAK_BLOCKS), above all it allocated,
// UNATTRIBUTED_BYTES and UNATTRIBUTED_ALLOCS included (jq's sampled
// peak read 304 MB against 273 MB allocated in all); and the peak no
// less than the contexts' shares of it add up to.
void sampled_bounds (HibNode *records, bool whole_run,
                     uint64_t unattributed_bytes,
                     uint64_t unattributed_allocs, uint64_t *peak_bytes,
                     uint64_t *peak_blocks);

} // namespace memprof

#endif
