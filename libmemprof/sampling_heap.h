// The sampling mode's heap (MEMPROF_OPTIONS=sample_interval=BYTES):
// an unsampled block is the C library's, a sampled one ours.
//
// The sampling decision comes first.  An unsampled allocation goes to
// the next malloc in the lookup order (glibc's), so it costs that
// malloc and the sampler's byte countdown: no header, no stack, no
// record, no live-heap counters.  Only a sampled block comes from the
// runtime's allocator, with its header and its granules of its own.
// The two never share a granule: the allocator's primary blocks lie in
// its own reserved range and its secondary blocks are mappings of their
// own.  So free, realloc, malloc_usable_size and every operator delete
// tell the kinds apart by the pointer alone: a pointer the allocator
// does not know (allocator_header is null) is the C library's once the
// sampling mode has handed out any, and goes back to it (its own
// checks then report a bad pointer, as glibc does).
//
// realloc is a new allocation for the sampler, as in the exact mode: a
// block of either kind reallocated to SIZE bytes becomes a sampled
// block of ours when a sampling point falls in those SIZE bytes, the C
// library's otherwise (a C library block then stays where its realloc
// puts it; one of ours is copied into a new C library block).

#ifndef MEMPROF_SAMPLING_HEAP_H
#define MEMPROF_SAMPLING_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "sampler.h"
#include "site_tally.h"

namespace memprof {

// The C library's allocation functions (the next definitions after the
// runtime's).
struct LibcHeap
{
  void *(*malloc) (size_t);
  void (*free) (void *);
  void *(*calloc) (size_t, size_t);
  void *(*realloc) (void *, size_t);
  void *(*memalign) (size_t, size_t);
  size_t (*usable_size) (void *);
};
extern LibcHeap libc_heap;

// The sampling interval, 0 in the exact mode (sampler.h).
extern uint64_t sample_interval;

// Whether a block may be the C library's: set for good when the
// sampling mode starts (blocks stay the C library's after the histogram
// mode stops sampling).
extern bool libc_heap_in_use;

// Start-up of the sampling mode: find the C library's functions.  False
// (nothing changed) when one is missing.
bool sampling_heap_init ();

// The alignment the C library's malloc guarantees: a request aligned no
// more than this is a plain malloc.
constexpr size_t kLibcMallocAlign = 16;

// What a new block of SIZE bytes from FRAME's caller is in the sampling
// mode while it samples: tallied at its site (site_tally.h), a site's
// first block in this thread since the last dump, and every block of at
// least sample_interval bytes, is ours with weight 1 (kExact), outside
// the Poisson process, which stays one over the other blocks: kSampled
// when a sampling point falls in them, else kUnsampled (the C
// library's).  The one place malloc and both reallocs decide.  (Inline:
// it is the unsampled allocation's whole decision.)
enum class BlockKind { kExact, kSampled, kUnsampled };
MEMPROF_ALWAYS_INLINE BlockKind
sampling_mode_kind (size_t size, uintptr_t frame)
{
  if (UNLIKELY (site_tally_add (site_of_frame (frame), size)))
    return BlockKind::kExact;
  // A large block stands for itself alone, a certainty unit as a site's
  // first block is: sampled, with p = 1 - e^(-size/interval) of 0.63 or
  // more, it was weighted by 1/p and scaled with the site's small blocks
  // (a 6.7 MB buffer at a wrapper's site read "7.7 MB in 1 block, max
  // 6.7 MB"), and such blocks are few: at most one per interval
  // allocated, the sampled blocks' own order.
  if (UNLIKELY (size >= sample_interval))
    return BlockKind::kExact;
  if (LIKELY (!sample_allocation (size)))
    return BlockKind::kUnsampled;
  return BlockKind::kSampled;
}

// The unsampled allocation's decision, inline in the entry points: true
// (and the block of SIZE bytes from SITE tallied and counted down) when
// it is the C library's by sampling_mode_kind's rule and none of its
// slow paths is needed -- the site is in the thread's tally, no
// sampling point falls in the block, the histogram mode has not
// stopped sampling.  False with nothing changed: the caller then takes
// allocate_sampling_mode.  So an unsampled malloc is these compares
// and a jump to the C library's, with no frame of ours in between.
MEMPROF_ALWAYS_INLINE bool
take_unsampled (size_t size, uintptr_t site)
{
  SiteTallyTable::Slot *s = site_tally_home_slot (site);
  int64_t left = sample_bytes_after (size);
  if (UNLIKELY (s == nullptr) || UNLIKELY (left <= 0)
      || UNLIKELY (size >= sample_interval) || UNLIKELY (histogram_mode))
    return false;
  site_tally_count (s, size);
  sample_bytes_left = left;
  return true;
}

// An allocation in the sampling mode (sample_interval != 0).
void *allocate_sampling_mode (size_t size, size_t align, uintptr_t frame,
                              bool zero);

// An unsampled block: the C library's malloc, calloc (ZERO) or memalign.
// Null with errno set when it fails.  The whole cost of an unsampled
// block beside the sampler's countdown: one call of the C library.
MEMPROF_ALWAYS_INLINE void *
allocate_unsampled (size_t size, size_t align, bool zero)
{
  if (LIKELY (align <= kLibcMallocAlign))
    return zero ? libc_heap.calloc (1, size) : libc_heap.malloc (size);
  // (calloc asks for no alignment: a zeroed aligned block is not asked.)
  return libc_heap.memalign (align, size);
}

// free in the sampling mode: P (maybe null) is ours or the C library's.
void deallocate_sampling_mode (void *p);

// realloc of P, a block the runtime's allocator does not know, while
// libc_heap_in_use: P is the C library's.
void *reallocate_foreign (void *p, size_t size, uintptr_t frame);

// heap.cpp: free of P, null or a block of ours (else reported invalid).
void deallocate_ours (void *p);

// heap.cpp: a sampled block of ours (its stack recorded from the caller
// of FRAME, weighted).
void *allocate_sampled (size_t size, size_t align, uintptr_t frame,
                        bool zero);

} // namespace memprof

#endif
