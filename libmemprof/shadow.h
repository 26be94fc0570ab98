// The dynamic shadow: one 8-byte counter per 64-byte granule of the
// whole user address space (abi.h).

#ifndef MEMPROF_SHADOW_H
#define MEMPROF_SHADOW_H

#include <stddef.h>
#include <stdint.h>

extern "C" uintptr_t __memprof_shadow_memory_dynamic_address;

namespace memprof {

// Reserve the shadow and publish its base.  Idempotent; false if the
// kernel refused the reservation.
bool shadow_init ();
// Bytes shadow_init reserves.
size_t shadow_size ();

inline uint64_t *
shadow_counter (uintptr_t addr)
{
  return (uint64_t *) (((addr & ~(uintptr_t) 63) >> 3)
                       + __memprof_shadow_memory_dynamic_address);
}

// The granule range of a block is its user range [P, P + SIZE) rounded
// out to 64-byte granules; an empty block still owns the granule of P.
struct GranuleStats
{
  uint64_t access_count;   // Sum of the counters.
  uint64_t granules;       // Granules in the range.
  uint64_t touched;        // Granules with a non-zero counter.
};

// Counter ranges of at least this many bytes are released with madvise
// instead of written (blocks of 512 KiB and more).
constexpr size_t kShadowMadviseThreshold = 64 * 1024;
// Zero the counters in [BEG, END) (of either shadow: uint64_t granule
// counters or uint32_t histogram slots), without dirtying clean pages;
// KEEP_PAGES: never with madvise either.
template <typename Counter>
void clear_counters (Counter *beg, Counter *end, bool keep_pages = false);

// Zero the counters of the block's granules (at allocation).  KEEP_PAGES:
// a block in a kept mapping (allocator.h), whose counters its next block
// writes again: zeroed where they are, not given back with madvise to
// be faulted in again (tcc's token pools: 173,000 faults for 9,800
// plain).
void shadow_clear (uintptr_t p, size_t size, bool keep_pages = false);
// Zero the counters of every granule overlapping [BEGIN, END); nothing
// when the range is empty.
void shadow_clear_range (uintptr_t begin, uintptr_t end);
// Read the counters of the block's granules and zero them (at free);
// KEEP_PAGES: as for shadow_clear.
GranuleStats shadow_collect (uintptr_t p, size_t size,
                             bool keep_pages = false);

// The counters of the granules of [P, P + SIZE): [*BEG, *END).
inline void
granule_bounds (uintptr_t p, size_t size, uint64_t **beg, uint64_t **end)
{
  uintptr_t last = p + (size ? size : 1) - 1;
  *beg = shadow_counter (p);
  *end = shadow_counter (last) + 1;
}

// The counters of [P, P + SIZE) in [*BEG, *END), their number in S and
// nothing counted yet; false (and S empty) when there is no shadow.
inline bool
block_counters (uintptr_t p, size_t size, GranuleStats *s, uint64_t **beg,
                uint64_t **end)
{
  *s = { 0, 0, 0 };
  if (!__memprof_shadow_memory_dynamic_address)
    return false;
  granule_bounds (p, size, beg, end);
  s->granules = *end - *beg;
  return true;
}

// shadow_collect for a primary block, in one pass: also zero every other
// granule overlapping [SPAN_BEGIN, SPAN_END), the whole block around
// [P, P + SIZE) (slack, room before an aligned pointer).  Inline: it is
// on every free.  Primary blocks are at most 128 KiB, so their shadow
// (2 KiB at most) is always written, never released with madvise.
inline GranuleStats
shadow_collect_span (uintptr_t p, size_t size, uintptr_t span_begin,
                     uintptr_t span_end)
{
  GranuleStats s;
  uint64_t *beg, *end;
  if (!block_counters (p, size, &s, &beg, &end))
    return s;
  uint64_t *c = shadow_counter (span_begin);
  uint64_t *span_end_counter = shadow_counter (span_end - 1) + 1;
  for (; c < span_end_counter; c++)
    {
      uint64_t v = *c;
      if (v)
        {
          *c = 0;
          if (c >= beg && c < end)
            {
              s.access_count += v;
              s.touched++;
            }
        }
    }
  return s;
}
// Read without clearing (live blocks at a dump).
GranuleStats shadow_read (uintptr_t p, size_t size);

} // namespace memprof

#endif
