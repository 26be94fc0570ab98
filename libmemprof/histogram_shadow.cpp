// Histogram mode's shadow: registration, reservation, reading.

#include "histogram_shadow.h"
#include "histogram_table.h"
#include "internal.h"
#include "memprof/abi.h"
#include "memprof/range_access.h"
#include "runtime.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" MEMPROF_EXPORT uintptr_t __memprof_histogram_shadow_base;
uintptr_t __memprof_histogram_shadow_base;

namespace memprof {

bool histogram_mode;

namespace {

// 4 bytes of counter per 8 bytes of the 47-bit user space.
constexpr uintptr_t kUserSpaceEnd = (uintptr_t) 1 << 47;
constexpr size_t kHistogramShadowSize
  = kUserSpaceEnd >> MEMPROF_HISTOGRAM_SHADOW_SCALE;
constexpr size_t kMadviseThreshold = kShadowMadviseThreshold;

SpinLock register_lock;
bool granule_unit_seen;

[[noreturn]] void
modes_mixed ()
{
  report ("memprof: this program mixes code compiled with "
          "-fheapprof-histogram and code compiled without it; its counts "
          "would be wrong: compile every instrumented file in one mode");
  sys_exit_group (1);
}

inline uint32_t *
counter_of (uintptr_t addr)
{
  return memprof_histogram_counter (__memprof_histogram_shadow_base, addr);
}

// ANY |= and SUM += each of the K counters at C.
MEMPROF_ALWAYS_INLINE void
or_and_sum (const uint32_t *c, size_t k, uint32_t &any, uint64_t &sum)
{
  for (size_t j = 0; j < k; j++)
    {
      any |= c[j];
      sum += c[j];
    }
}

} // namespace

void
histogram_note_granule_unit ()
{
  LockGuard g (register_lock);
  if (histogram_mode)
    modes_mixed ();
  granule_unit_seen = true;
}

void
histogram_note_histogram_unit ()
{
  LockGuard g (register_lock);
  if (granule_unit_seen)
    modes_mixed ();
  if (histogram_mode)
    return;
  void *base = map_memory (kHistogramShadowSize, true);
  if (!base)
    reservation_failed ("histogram shadow memory", kHistogramShadowSize,
                        errno);
  madvise (base, kHistogramShadowSize, MADV_NOHUGEPAGE);
  madvise (base, kHistogramShadowSize, MADV_DONTDUMP);
  __atomic_store_n (&__memprof_histogram_shadow_base, (uintptr_t) base,
                    __ATOMIC_RELEASE);
  __atomic_store_n (&histogram_mode, true, __ATOMIC_RELEASE);
}

void
histogram_clear_range (uintptr_t begin, uintptr_t end)
{
  if (begin >= end || !__memprof_histogram_shadow_base)
    return;
  clear_counters (counter_of (begin), counter_of (end - 1) + 1);
}

GranuleStats
histogram_take_block (uint32_t context, uintptr_t p, size_t size, bool clear)
{
  GranuleStats s = { 0, 0, 0 };
  if (!__memprof_histogram_shadow_base)
    return s;
  uintptr_t last = p + (size ? size : 1) - 1;
  uint32_t *beg = counter_of (p), *end = counter_of (last) + 1;
  size_t slots = end - beg;
  histogram_add (context, beg, slots);
  // Granules as the default mode sees them: by address.  The counters
  // are read a granule's slots at a time (its first and last granule
  // may hold fewer of the block's), and a granule whose slots are all
  // zero, as most of a large block's usually are, costs one test.
  s.granules = last / MEMPROF_GRANULE_SIZE - p / MEMPROF_GRANULE_SIZE + 1;
  constexpr size_t kSlotsPerGranule
    = MEMPROF_GRANULE_SIZE / MEMPROF_HISTOGRAM_SLOT_SIZE;
  bool clear_here = clear && slots * 4 < kMadviseThreshold;
  size_t k = kSlotsPerGranule
             - p % MEMPROF_GRANULE_SIZE / MEMPROF_HISTOGRAM_SLOT_SIZE;
  for (uint32_t *c = beg; c < end; c += k, k = kSlotsPerGranule)
    {
      if (k > (size_t) (end - c))
        k = end - c;
      uint32_t any = 0;
      uint64_t sum = 0;
      // A whole granule's slots with a constant count: the loop unrolls.
      if (LIKELY (k == kSlotsPerGranule))
        or_and_sum (c, kSlotsPerGranule, any, sum);
      else
        or_and_sum (c, k, any, sum);
      if (!any)
        continue;
      s.touched++;
      s.access_count += sum;
      if (clear_here)
        for (size_t j = 0; j < k; j++)
          if (c[j])
            c[j] = 0;
    }
  if (clear && slots * 4 >= kMadviseThreshold)
    clear_counters (beg, end);
  return s;
}

} // namespace memprof
