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

#endif /* MEMPROF_RANGE_ACCESS_H */
