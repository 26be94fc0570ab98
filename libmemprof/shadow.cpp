// Shadow reservation, clearing and reading.

#include "shadow.h"
#include "internal.h"

#include <sys/mman.h>

// Instrumented code loads this once per function.  Zero until the shadow
// exists; the runtime sets it from .preinit_array (executables) or its
// constructor, before any instrumented code runs.
extern "C" MEMPROF_EXPORT uintptr_t __memprof_shadow_memory_dynamic_address;
uintptr_t __memprof_shadow_memory_dynamic_address;

namespace memprof {

namespace {

// x86-64 user space is 47 bits: the shadow of it is 2^44 bytes (16 TiB),
// reserved but never committed until a counter is written.
constexpr uintptr_t kUserSpaceEnd = (uintptr_t) 1 << 47;
constexpr size_t kShadowSize = kUserSpaceEnd >> 3;
constexpr size_t kMadviseThreshold = kShadowMadviseThreshold;

SpinLock init_lock;

} // namespace

template <typename Counter>
void
clear_counters (Counter *beg, Counter *end, bool keep_pages)
{
  uintptr_t b = (uintptr_t) beg, e = (uintptr_t) end;
  if (!keep_pages && e - b >= kMadviseThreshold)
    {
      uintptr_t pb = round_up (b, kPageSize), pe = round_down (e, kPageSize);
      internal_memset (beg, 0, pb - b);
      madvise ((void *) pb, pe - pb, MADV_DONTNEED);
      internal_memset ((void *) pe, 0, e - pe);
      return;
    }
  // Counters are almost always zero already (free read-and-cleared
  // them): read first so clean shadow pages are never dirtied.
  for (Counter *c = beg; c < end; c++)
    if (*c)
      *c = 0;
}
template void clear_counters (uint64_t *, uint64_t *, bool);
template void clear_counters (uint32_t *, uint32_t *, bool);

namespace {

template <bool kClear>
GranuleStats
scan (uintptr_t p, size_t size, bool keep_pages = false)
{
  GranuleStats s;
  uint64_t *beg, *end;
  if (!block_counters (p, size, &s, &beg, &end))
    return s;
  // A large block with many counters touched gives its shadow pages back
  // (madvise) instead of writing them.  A few touched (a block realloc
  // grows in place, its tail written between calls) are zeroed where
  // they are: giving back their pages would make every later scan fault
  // them in again.
  constexpr uint32_t kZeroInPlace = 512;
  bool large = !keep_pages && s.granules >= kMadviseThreshold / 8;
  for (uint64_t *c = beg; c < end; c++)
    {
      uint64_t v = *c;
      if (v)
        {
          s.access_count += v;
          s.touched++;
          if (kClear && (!large || s.touched <= kZeroInPlace))
            *c = 0;
        }
    }
  if (kClear && large && s.touched > kZeroInPlace)
    clear_counters (beg, end);
  return s;
}

} // namespace

size_t
shadow_size ()
{
  return kShadowSize;
}

bool
shadow_init ()
{
  if (__atomic_load_n (&__memprof_shadow_memory_dynamic_address,
                       __ATOMIC_ACQUIRE))
    return true;
  LockGuard g (init_lock);
  if (__memprof_shadow_memory_dynamic_address)
    return true;
  void *base = map_memory (kShadowSize, true);
  if (!base)
    return false;
  // One counter touched must not commit a 2 MiB huge page.
  madvise (base, kShadowSize, MADV_NOHUGEPAGE);
  madvise (base, kShadowSize, MADV_DONTDUMP);
  // The counter of address A lives at (A >> 3) + base; base is
  // page-aligned, and the kernel picked it so it collides with nothing.
  __atomic_store_n (&__memprof_shadow_memory_dynamic_address,
                    (uintptr_t) base, __ATOMIC_RELEASE);
  return true;
}

void
shadow_clear (uintptr_t p, size_t size, bool keep_pages)
{
  if (!__memprof_shadow_memory_dynamic_address)
    return;
  uint64_t *beg, *end;
  granule_bounds (p, size, &beg, &end);
  clear_counters (beg, end, keep_pages);
}

void
shadow_clear_range (uintptr_t begin, uintptr_t end)
{
  if (begin >= end || !__memprof_shadow_memory_dynamic_address)
    return;
  clear_counters (shadow_counter (begin), shadow_counter (end - 1) + 1);
}

GranuleStats
shadow_collect (uintptr_t p, size_t size, bool keep_pages)
{
  return scan<true> (p, size, keep_pages);
}

GranuleStats
shadow_read (uintptr_t p, size_t size)
{
  return scan<false> (p, size);
}

} // namespace memprof
