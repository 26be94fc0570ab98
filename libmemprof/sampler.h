// Sampling mode (MEMPROF_OPTIONS=sample_interval=BYTES): which
// allocations are profiled, and what each profiled one stands for.
//
// As tcmalloc and Chromium do, sampling points fall on the bytes a
// thread allocates as a Poisson process of mean interval BYTES: each
// thread counts down the bytes until its next point, drawn from an
// exponential distribution, and the allocation whose bytes hold a point
// is sampled.  So a block of SIZE bytes is sampled with probability
// p = 1 - exp (-SIZE / BYTES), independently of every other block, and
// stands for 1/p blocks like it: its weight.  Only sampled blocks
// capture a stack and reach the HIB table; the others are the C
// library's (sampling_heap.h) and cost the runtime a subtraction and a
// compare.  A block of
// 0 bytes counts as 1 byte here (so it can be sampled at all).
//
// sample_interval=0 (the default) is the exact mode: every block is
// profiled with weight 1 and none of this runs.

#ifndef MEMPROF_SAMPLER_H
#define MEMPROF_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "histogram_shadow.h"
#include "internal.h"
#include "live_heap.h"

namespace memprof {

// The mean sampling interval in bytes, 0 in the exact mode.  Set once,
// at full initialisation (blocks allocated before are exact ones).
// Blocks of at least this size are not sampled but profiled with
// weight 1, as certainty units (sampling_mode_kind).
extern uint64_t sample_interval;

// Bytes this thread may still allocate before its next sampling point;
// 0 until its first allocation in the sampling mode.
extern MEMPROF_TLS int64_t sample_bytes_left;

// The slow path of sample_allocation: a point falls inside this block
// (or the thread has not drawn its first point yet).
bool sample_point_reached (size_t size);

// The thread's countdown after an allocation of SIZE bytes (a byte for
// malloc (0)): a sampling point falls in the block when it is not
// positive.
MEMPROF_ALWAYS_INLINE int64_t
sample_bytes_after (size_t size)
{
  return sample_bytes_left - (int64_t) (size ? size : 1);
}

// Sampling mode only: whether the allocation of SIZE bytes is sampled.
MEMPROF_ALWAYS_INLINE bool
sample_allocation (size_t size)
{
  int64_t left = sample_bytes_after (size);
  if (LIKELY (left > 0))
    {
      sample_bytes_left = left;
      return false;
    }
  return sample_point_reached (size);
}

// What a sampled block of SIZE bytes adds to its context's live heap
// (live_heap.h): SIZE / p bytes rounded to a whole byte (that is at
// least BYTES, so the rounding is below a millionth), and 1/p blocks in
// units of kLiveBlockUnit.  A function of SIZE only, so a block
// subtracts at its free exactly what it added at its allocation.
LiveAmount sampled_live_amount (uint64_t size);

// A sampled block's weight in its Heap Info Block: 1/p rounded to a
// whole number at random (up with probability equal to the fraction), so
// its expectation is exactly 1/p.  Drawn once per block, when its life
// is recorded.
uint64_t sampled_record_weight (uint64_t size);

// The histogram mode (-fheapprof-histogram, histogram_shadow.h) profiles
// every block, its histograms are not weighted: once a histogram unit
// registers, sampling stops (said once on stderr) and sample_interval
// reads 0.  True then.
bool sampling_stopped_slow ();
MEMPROF_ALWAYS_INLINE bool
sampling_stopped ()
{
  return UNLIKELY (histogram_mode) && sampling_stopped_slow ();
}

// Start-up (full_init, after the options are read) and a forked child
// (it draws its own points, not a copy of its parent's).
void sampler_init ();
void sampler_after_fork_child ();

// The calling thread's next 64 random bits (the dump's calibration
// rounds with them).
uint64_t sampler_random ();

// Blocks sampled so far (reported at verbosity=1 with each dump).
uint64_t sampled_blocks ();

} // namespace memprof

#endif
