// Block allocator: a primary allocator of size classes with per-thread
// caches, and a secondary one mapping large blocks on their own.  It
// knows nothing of profiling: it hands out user pointers with room for a
// ChunkHeader in front and takes them back.  (One exception: unmapping a
// kept mapping, it gives back the shadow pages its blocks' counters
// kept.)

#ifndef MEMPROF_ALLOCATOR_H
#define MEMPROF_ALLOCATOR_H

#include <stddef.h>
#include <stdint.h>

#include "chunk_header.h"
#include "internal.h"
#include "size_classes.h"
#include "thread_cache.h"

namespace memprof {

// Largest request served at all (like glibc, PTRDIFF_MAX is refused; we
// stop at 1 TiB).
constexpr size_t kMaxAllocationSize = (size_t) 1 << 40;

// Where blocks can be: the primary space (kPrimarySpaceSize bytes from
// primary_base, 0 until allocator_init) and an interval covering every
// secondary mapping made so far (widened, never narrowed).  Read by
// allocator_may_hold on every counted range, so it sits on one line.
struct alignas (64) HeapSpan
{
  uintptr_t primary_base;
  uintptr_t secondary_lo;   // Both 0 until the first secondary block.
  uintptr_t secondary_hi;
};
extern HeapSpan heap_span;
// A region of 64 GiB per class (size_classes.h).
constexpr uintptr_t kPrimarySpaceSize = (uintptr_t) kNumClasses << kRegionShift;

// Whether U lies within the span of the secondary mappings (false while
// there are none): two compares, no memory read but HEAP_SPAN's line.
inline bool
allocator_in_secondary_span (uintptr_t u)
{
  return u - heap_span.secondary_lo
         < heap_span.secondary_hi - heap_span.secondary_lo;
}

// Whether P may lie in a block: false for stacks, globals and (in the
// sampling mode) the C library's heap, whose shadow nobody reads, so the
// interceptors need not count accesses there.  True for every byte of
// every block; also for some other memory (anything below
// kPrimarySpaceSize before allocator_init, mappings between secondary
// blocks), which only costs a count.
inline bool
allocator_may_hold (const void *p)
{
  uintptr_t u = (uintptr_t) p;
  return u - heap_span.primary_base < kPrimarySpaceSize
         || allocator_in_secondary_span (u);
}

// Reserve the primary space.  Safe to call repeatedly and from any
// thread; false if the kernel refused.
bool allocator_init ();
// Bytes of address space allocator_init reserves.
size_t allocator_space_size ();

// The entry points below are inline in malloc and free for the common
// case (a primary block not over-aligned, the thread's cache list
// holding what is needed); the rest is the _slow functions'.
void *allocator_allocate_slow (size_t size, size_t align);
ChunkHeader *allocator_header_slow (const void *p);
void allocator_release_slow (void *p, ChunkHeader *h);
void allocator_primary_span_slow (const void *p, const ChunkHeader *h,
                                  uintptr_t *begin, uintptr_t *end);

// The size class of the primary block at user pointer U.
inline int
primary_class_of (uintptr_t u)
{
  return (int) ((u - heap_span.primary_base) >> kRegionShift);
}

// A block whose user area has SIZE bytes aligned to ALIGN (a power of
// two, at least 32), or null when out of memory.  The header in front of
// it has state kChunkFree, flags set, other fields undefined.
MEMPROF_ALWAYS_INLINE void *
allocator_allocate (size_t size, size_t align)
{
  // Blocks of the linear classes (header included, at most 1 KiB).
  if (LIKELY (align <= 32 && size <= 1024 - sizeof (ChunkHeader)))
    {
      int c = (int) (round_up (size ? size : 1, 32) / 32) - 1;
      if (void *user = thread_cache_pop (c))
        {
          header_before (user)->flags = 0;
          return user;
        }
    }
  return allocator_allocate_slow (size, align);
}

// The header of a user pointer, or null when P is no pointer the
// allocator returned: outside its space, inside a block, not a mapped
// block's start.  Cheap: no division for blocks that are not
// over-aligned.  (A pointer to a freed block still has its header.)
MEMPROF_ALWAYS_INLINE ChunkHeader *
allocator_header (const void *p)
{
  uintptr_t u = (uintptr_t) p;
  uintptr_t off = u - heap_span.primary_base;
  if (LIKELY (off < kPrimarySpaceSize))
    {
      uintptr_t offset = off & (kRegionSize - 1);
      if (LIKELY (!(u & 31) && offset >= sizeof (ChunkHeader)
                  && at_block_start ((int) (off >> kRegionShift),
                                     offset - sizeof (ChunkHeader))))
        return header_before (p);
    }
  return allocator_header_slow (p);
}

// Give a block back; its header state was already set by the caller.
MEMPROF_ALWAYS_INLINE void
allocator_release (void *p, ChunkHeader *h)
{
  if (LIKELY (!(h->flags & (kChunkSecondary | kChunkAligned)))
      && LIKELY (thread_cache_push (primary_class_of ((uintptr_t) p), p)))
    return;
  allocator_release_slow (p, h);
}

// Grow the secondary block at user pointer P to at least SIZE usable
// bytes by growing its mapping (mremap: the kernel moves the pages,
// nothing is copied).  Its header must be claimed (state not
// kChunkAllocated).  Returns its user pointer, P or a new one at the
// same offset in the new mapping, with the headers and every byte of
// the old mapping there, the block listed again and the secondary span
// widened over it; or null, the block left as it was, when the kernel
// refused.
void *allocator_grow_secondary (void *p, size_t size);

// Whether the secondary block at user pointer P, freed now, would leave
// its mapping kept for a later block rather than unmapped (a hint:
// another thread may take the last room first).  Its shadow is then
// zeroed in place rather than given back (shadow.h, KEEP_PAGES).
bool allocator_may_keep (const void *p);

// Usable bytes of the block at user pointer P (>= its requested size).
size_t allocator_usable_size (const void *p, const ChunkHeader *h);

// The whole user area of the primary block holding user pointer P (whose
// header is H): from just after the block's first header to the block's
// end.  Its shadow is kept zero while the block is free, so allocation
// need not clear it.
MEMPROF_ALWAYS_INLINE void
allocator_primary_span (const void *p, const ChunkHeader *h,
                        uintptr_t *begin, uintptr_t *end)
{
  if (UNLIKELY (h->flags & kChunkAligned))
    {
      allocator_primary_span_slow (p, h, begin, end);
      return;
    }
  uintptr_t u = (uintptr_t) p;
  *begin = u;
  *end = u - sizeof (ChunkHeader)
         + class_table.block_size[primary_class_of (u)];
}

// Call FN for every header whose state is kChunkAllocated (primary and
// secondary).  Racy against other threads by design: FN must claim a
// block by changing its state atomically.
void allocator_for_each_allocated (void (*fn) (ChunkHeader *h, void *user,
                                               void *arg),
                                   void *arg);

// Fork: take every allocator lock before fork, release after it.
void allocator_lock_all ();
void allocator_unlock_all ();

} // namespace memprof

#endif
