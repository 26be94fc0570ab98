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

/* Strided rule: COUNT accesses at ADDR, ADDR + STRIDE, ADDR + 2 * STRIDE,
   ... (STRIDE > 0) add, to each granule's counter, the number of them
   whose address lies in it: exactly what counting each access on its own
   gives, one granule at a time.  The plugin uses it for accesses through
   a pointer induction variable of a loop without calls, counted when the
   loop exits.  */
static inline void
memprof_count_strided (uintptr_t shadow_base, uintptr_t addr, uintptr_t count,
                       uintptr_t stride)
{
  if (count == 0 || stride == 0 || shadow_base == 0)
    return;
  if (MEMPROF_GRANULE_SIZE % stride == 0)
    {
      /* Steps of 1, 2, 4, ... 64 bytes (scalar and vector loops): every
         granule after the first holds GRANULE / STRIDE of the accesses,
         so one division for the first and none per granule after it.  */
      uintptr_t first = ((addr | (MEMPROF_GRANULE_SIZE - 1)) - addr)
                        / stride + 1;
      uintptr_t per_granule = MEMPROF_GRANULE_SIZE / stride;
      uint64_t *c = (uint64_t *) (((addr & ~(uintptr_t) (MEMPROF_GRANULE_SIZE
                                                          - 1))
                                   >> MEMPROF_SHADOW_SCALE) + shadow_base);
      if (first > count)
        first = count;
      *c++ += first;
      for (count -= first; count >= per_granule; count -= per_granule)
        *c++ += per_granule;
      if (count)
        *c += count;
      return;
    }
  /* Other steps (structures of 12, 24, 40 ... bytes): access by access,
     the current granule's count kept in a register and added when an
     access leaves it; no division.  */
  uintptr_t granule = addr / MEMPROF_GRANULE_SIZE, n = 0;
  for (; count; count--, addr += stride)
    {
      if (addr / MEMPROF_GRANULE_SIZE != granule)
        {
          *(uint64_t *) ((granule * MEMPROF_GRANULE_SIZE
                          >> MEMPROF_SHADOW_SCALE) + shadow_base) += n;
          granule = addr / MEMPROF_GRANULE_SIZE;
          n = 0;
        }
      n++;
    }
  *(uint64_t *) ((granule * MEMPROF_GRANULE_SIZE >> MEMPROF_SHADOW_SCALE)
                 + shadow_base) += n;
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

static inline void
memprof_histogram_count_strided (uintptr_t shadow_base, uintptr_t addr,
                                 uintptr_t count, uintptr_t stride)
{
  if (count == 0 || stride == 0 || shadow_base == 0)
    return;
  if (MEMPROF_HISTOGRAM_SLOT_SIZE % stride == 0)
    {
      /* Steps of 1, 2, 4 or 8 bytes (byte, short, int, long and pointer
         loops): every slot after the first holds SLOT / STRIDE of the
         accesses, so no division per slot.  */
      uintptr_t first = ((addr | (MEMPROF_HISTOGRAM_SLOT_SIZE - 1)) - addr)
                        / stride + 1;
      uintptr_t per_slot = MEMPROF_HISTOGRAM_SLOT_SIZE / stride;
      uint32_t *c = memprof_histogram_counter (shadow_base, addr);
      if (first > count)
        first = count;
      memprof_histogram_add (c++, first);
      for (count -= first; count >= per_slot; count -= per_slot)
        memprof_histogram_add (c++, per_slot);
      if (count)
        memprof_histogram_add (c, count);
      return;
    }
  /* Other steps (3, 5, 6, 7 bytes, and every step past a slot, as a
     vector loop's 16 or 32): access by access, the current slot's count
     kept in a register and added when an access leaves it; no division
     (one per slot made vector loops slower counted at their exit than
     access by access).  */
  uintptr_t slot = addr / MEMPROF_HISTOGRAM_SLOT_SIZE, n = 0;
  for (; count; count--, addr += stride)
    {
      if (addr / MEMPROF_HISTOGRAM_SLOT_SIZE != slot)
        {
          memprof_histogram_add (memprof_histogram_counter
                                   (shadow_base,
                                    slot * MEMPROF_HISTOGRAM_SLOT_SIZE),
                                 n);
          slot = addr / MEMPROF_HISTOGRAM_SLOT_SIZE;
          n = 0;
        }
      n++;
    }
  memprof_histogram_add (memprof_histogram_counter
                           (shadow_base, slot * MEMPROF_HISTOGRAM_SLOT_SIZE),
                         n);
}

#endif /* MEMPROF_RANGE_ACCESS_H */
