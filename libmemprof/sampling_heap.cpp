// The sampling mode's heap: unsampled blocks are the C library's (see
// sampling_heap.h).

#include "sampling_heap.h"
#include "allocator.h"
#include "runtime.h"
#include "sampler.h"
#include "site_tally.h"

#include <dlfcn.h>

namespace memprof {

LibcHeap libc_heap;
bool libc_heap_in_use;

namespace {

template <typename T>
bool
find_next (T &slot, const char *name)
{
  slot = (T) dlsym (RTLD_NEXT, name);
  return slot != nullptr;
}

} // namespace

bool
sampling_heap_init ()
{
  LibcHeap h;
  if (!find_next (h.malloc, "malloc") || !find_next (h.free, "free")
      || !find_next (h.calloc, "calloc") || !find_next (h.realloc, "realloc")
      || !find_next (h.memalign, "memalign")
      || !find_next (h.usable_size, "malloc_usable_size"))
    return false;
  libc_heap = h;
  __atomic_store_n (&libc_heap_in_use, true, __ATOMIC_RELEASE);
  return true;
}

void *
allocate_sampling_mode (size_t size, size_t align, uintptr_t frame,
                        bool zero)
{
  if (UNLIKELY (sampling_stopped ()))
    return allocate (size, align, frame, zero);   // Exact from now on.
  // Every block is tallied at its site (site_tally.h); a site's first
  // block in this thread (since the last dump) is ours with weight 1,
  // outside the Poisson process, which stays one over the other blocks.
  if (UNLIKELY (site_tally_add (site_of_frame (frame), size)))
    return allocate_exact (size, align, frame, zero);
  if (LIKELY (!sample_allocation (size)))
    return allocate_unsampled (size, align, zero);
  return allocate_sampled (size, align, frame, zero);
}

void
deallocate_sampling_mode (void *p)
{
  if (LIKELY (p && !allocator_header (p)))
    libc_heap.free (p);
  else
    deallocate_ours (p);
}

void *
reallocate_foreign (void *p, size_t size, uintptr_t frame)
{
  bool forced = false;
  if (sample_interval != 0 && !sampling_stopped ()
      && (UNLIKELY (forced = site_tally_add (site_of_frame (frame), size))
          || UNLIKELY (sample_allocation (size))))
    {
      void *q = forced ? allocate_exact (size, kLibcMallocAlign, frame, false)
                       : allocate_sampled (size, kLibcMallocAlign, frame,
                                           false);
      if (!q)
        return nullptr;
      // Every byte malloc_usable_size promised is the program's.
      size_t old = libc_heap.usable_size (p);
      internal_memcpy (q, p, old < size ? old : size);
      libc_heap.free (p);
      return q;
    }
  return libc_heap.realloc (p, size);
}

} // namespace memprof
