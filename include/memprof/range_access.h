/* The range-counting rule, shared by the runtime's interceptors and the
   __memprof_mem* functions the plugin calls in place of memory builtins.

   Rule: an access to the byte range [ADDR, ADDR + N), N > 0, adds one to
   the counter of every 64-byte granule the range overlaps.  A range of N
   bytes therefore counts between ceil(N/64) and ceil(N/64) + 1 accesses;
   an empty range counts nothing.  This makes a memset or memcpy over a
   block look like one pass over it: every granule touched once, the
   block's utilisation exact.  */

#ifndef MEMPROF_RANGE_ACCESS_H
#define MEMPROF_RANGE_ACCESS_H

#include <stddef.h>
#include <stdint.h>
#include "memprof/abi.h"

static inline void
memprof_count_range (uintptr_t shadow_base, uintptr_t addr, size_t n)
{
  if (n == 0 || shadow_base == 0)
    return;
  uintptr_t first = addr & ~(uintptr_t) (MEMPROF_GRANULE_SIZE - 1);
  uintptr_t last = (addr + n - 1) & ~(uintptr_t) (MEMPROF_GRANULE_SIZE - 1);
  uint64_t *c = (uint64_t *) ((first >> MEMPROF_SHADOW_SCALE) + shadow_base);
  uint64_t *end = (uint64_t *) ((last >> MEMPROF_SHADOW_SCALE) + shadow_base);
  for (; c <= end; c++)
    ++*c;
}

/* Histogram mode (abi.h): the same two rules with 8-byte slots for
   granules.  A range adds one to every slot it overlaps (a memset of a
   block counts each of its slots once); a strided run adds to each slot
   the number of its accesses in that slot.  Counters saturate at
   MEMPROF_HISTOGRAM_COUNTER_MAX instead of wrapping.  */
static inline uint32_t *
memprof_histogram_counter (uintptr_t shadow_base, uintptr_t addr)
{
  return (uint32_t *) (((addr & ~(uintptr_t) (MEMPROF_HISTOGRAM_SLOT_SIZE - 1))
                        >> MEMPROF_HISTOGRAM_SHADOW_SCALE) + shadow_base);
}

static inline void
memprof_histogram_add (uint32_t *c, uintptr_t n)
{
  uint32_t room = MEMPROF_HISTOGRAM_COUNTER_MAX - *c;
  *c = n >= room ? MEMPROF_HISTOGRAM_COUNTER_MAX : *c + (uint32_t) n;
}

static inline void
memprof_histogram_count_range (uintptr_t shadow_base, uintptr_t addr, size_t n)
{
  if (n == 0 || shadow_base == 0)
    return;
  uint32_t *c = memprof_histogram_counter (shadow_base, addr);
  uint32_t *end = memprof_histogram_counter (shadow_base, addr + n - 1);
  for (; c <= end; c++)
    memprof_histogram_add (c, 1);
}

/* Strided rule: COUNT accesses at ADDR, ADDR + STRIDE, ADDR + 2 * STRIDE,
   ... (STRIDE > 0) add, to each granule's counter, the number of them
   whose address lies in it: exactly what counting each access on its own
   gives, one granule at a time.  The plugin uses it for the accesses of
   a loop without calls, counted when the loop exits.  Both modes, by
   HISTOGRAM (a constant at each caller, so each gets its own code):
   granules of 64 bytes and 8-byte counters, or slots of 8 and
   saturating 4-byte ones.  */
static inline void
memprof_strided_add (uintptr_t shadow_base, uintptr_t addr, uintptr_t n,
                     int histogram)
{
  if (histogram)
    memprof_histogram_add (memprof_histogram_counter (shadow_base, addr), n);
  else
    *(uint64_t *) (((addr & ~(uintptr_t) (MEMPROF_GRANULE_SIZE - 1))
                    >> MEMPROF_SHADOW_SCALE) + shadow_base) += n;
}

static inline void
memprof_strided_rule (uintptr_t shadow_base, uintptr_t addr, uintptr_t count,
                      uintptr_t stride, int histogram)
{
  uintptr_t size = histogram ? MEMPROF_HISTOGRAM_SLOT_SIZE
                             : MEMPROF_GRANULE_SIZE;
  if (count == 0 || stride == 0 || shadow_base == 0)
    return;
  if ((stride & (stride - 1)) == 0 && stride <= size)
    {
      /* Steps of 1, 2, 4 ... up to a granule (scalar and vector loops):
         every granule after the first holds SIZE / STRIDE of the
         accesses; powers of two, so shifts and no division.  */
      unsigned shift = (unsigned) __builtin_ctzl (stride);
      uintptr_t first = (((addr | (size - 1)) - addr) >> shift) + 1;
      uintptr_t per_granule = size >> shift;
      if (first > count)
        first = count;
      memprof_strided_add (shadow_base, addr, first, histogram);
      addr &= ~(size - 1);
      for (count -= first; count >= per_granule; count -= per_granule)
        memprof_strided_add (shadow_base, addr += size, per_granule,
                             histogram);
      if (count)
        memprof_strided_add (shadow_base, addr + size, count, histogram);
      return;
    }
  /* Other steps (structures of 12, 24, 40 bytes; in histogram mode every
     step past a slot, as a vector loop's 16 or 32): access by access,
     the current granule's count kept in a register and added when an
     access leaves it; no division (one per granule made vector loops
     slower counted at their exit than access by access).  */
  uintptr_t granule = addr / size, n = 0;
  for (; count; count--, addr += stride)
    {
      if (addr / size != granule)
        {
          memprof_strided_add (shadow_base, granule * size, n, histogram);
          granule = addr / size;
          n = 0;
        }
      n++;
    }
  memprof_strided_add (shadow_base, granule * size, n, histogram);
}

static inline void
memprof_count_strided (uintptr_t shadow_base, uintptr_t addr, uintptr_t count,
                       uintptr_t stride)
{
  memprof_strided_rule (shadow_base, addr, count, stride, 0);
}

static inline void
memprof_histogram_count_strided (uintptr_t shadow_base, uintptr_t addr,
                                 uintptr_t count, uintptr_t stride)
{
  memprof_strided_rule (shadow_base, addr, count, stride, 1);
}

#endif /* MEMPROF_RANGE_ACCESS_H */
