// The sampling mode's heap: unsampled blocks are the C library's (see
// sampling_heap.h).

#include "sampling_heap.h"
#include "allocator.h"
#include "runtime.h"
#include "sampler.h"

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
  switch (sampling_mode_kind (size, frame))
    {
    case BlockKind::kUnsampled:
      return allocate_unsampled (size, align, zero);
    case BlockKind::kSampled:
      return allocate_sampled (size, align, frame, zero);
    default:
      return allocate_certain (size, align, frame, zero);
    }
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
  BlockKind kind = BlockKind::kUnsampled;
  if (sample_interval != 0 && !sampling_stopped ())
    kind = sampling_mode_kind (size, frame);
  if (kind != BlockKind::kUnsampled)
    {
      void *q = kind == BlockKind::kExact
                  ? allocate_certain (size, kLibcMallocAlign, frame, false)
                  : allocate_sampled (size, kLibcMallocAlign, frame, false);
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
