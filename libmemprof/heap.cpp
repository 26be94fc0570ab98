// Allocation and free as the profiler sees them: the header is stamped
// at allocation (stack id, CPU, time, size), the shadow of the block is
// cleared; at free the shadow is read and cleared and the block's life
// merged into its context's Heap Info Block.  In the sampling mode
// (sampler.h) only sampled blocks are ours, weighted; an unsampled
// block is the C library's (sampling_heap.h).

#include "runtime.h"
#include "allocator.h"
#include "block_claim.h"
#include "clock_cpu.h"
#include "flags.h"
#include "hib_cache.h"
#include "histogram_shadow.h"
#include "module_table.h"
#include "live_heap.h"
#include "per_thread.h"
#include "shadow.h"
#include "sampler.h"
#include "sampling_heap.h"
#include "stack_depot.h"
#include "unwind.h"

#include <errno.h>

namespace memprof {

namespace {

// Most blocks are wholly used or untouched: skip the division for them.
inline uint32_t
percent_of (const GranuleStats &s)
{
  if (s.touched == s.granules)
    return s.granules ? 100 : 0;
  if (s.touched == 0)
    return 0;
  return (uint32_t) (s.touched * 100 / s.granules);
}

// SHARED: straight into the shared table, never the thread's cache (a
// dump: its thread may be a signal handler's, or have no cache yet); the
// block is still live, so freed on no CPU: its allocating one stands in,
// and it does not count as migrated.
// SAMPLED: a sampled block, into the table weighted.
template <bool Sampled = false>
void
record_life (const ChunkHeader *h, const GranuleStats &s, bool shared = false)
{
  BlockLife life;
  // The sampling mode's weight-1 blocks go to records of their own.
  life.context_id = h->alloc_context_id
                    | (UNLIKELY (h->flags & kChunkCertain) ? kCertainContext
                                                           : 0);
  life.size = h->requested_size;
  life.access_count = s.access_count;
  life.percent_utilized = percent_of (s);
  life.alloc_timestamp = h->alloc_timestamp;
  life.dealloc_timestamp = now_ms ();
  life.alloc_cpu = h->alloc_cpu;
  life.dealloc_cpu = shared ? h->alloc_cpu : current_cpu ();
  life.data_type_id = h->data_type_id;
  if (Sampled)
    hib_record_weighted (life, sampled_record_weight (life.size));
  else if (shared)
    hib_record_shared (life);
  else
    hib_record (life);
}

// What block H added to its context's live heap.
inline LiveAmount
live_amount (const ChunkHeader *h)
{
  if (UNLIKELY (h->flags & kChunkSampled))
    return sampled_live_amount (h->requested_size);
  return live_exact (h->requested_size);
}

void
report_one_live (ChunkHeader *h, void *user, void *)
{
  if (h->epoch != profile_epoch)
    return;
  uint8_t expected = kChunkAllocated;
  if (!__atomic_compare_exchange_n (&h->state, &expected, kChunkReported,
                                    false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED))
    return;
  live_report_exit (depot_live (h->alloc_context_id), live_amount (h));
  GranuleStats s
    = UNLIKELY (histogram_mode)
        ? histogram_take_block (h->alloc_context_id, (uintptr_t) user,
                                h->requested_size, false)
        : shadow_read ((uintptr_t) user, h->requested_size);
  if (h->flags & kChunkSampled)
    record_life<true> (h, s, true);
  else
    record_life (h, s, true);
}

void
retire_one (ChunkHeader *h, void *, void *arg)
{
  if (h->epoch == *(uint16_t *) arg)
    return;
  uint8_t expected = kChunkAllocated;
  __atomic_compare_exchange_n (&h->state, &expected, kChunkReported, false,
                               __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

} // namespace

namespace {

// Make the block P (header H, not yet visible as allocated) a new
// allocation of SIZE bytes whose stack starts at the caller of FRAME.
// Inlined: allocate is the hot path, realloc keeps its own copy.
// SAMPLED: a sampled block of the sampling mode.  CLEAN: bytes from P
// whose granules' counters are known to be zero (realloc in place: the
// old life's end cleared them).
template <bool Sampled>
MEMPROF_ALWAYS_INLINE void
stamp_life (void *p, ChunkHeader *h, size_t size, uintptr_t frame,
            size_t clean = 0)
{
  PerThread *pt = per_thread ();
  if (UNLIKELY (pt && pt->module_generation != current_module_generation ()))
    per_thread_forget_code (pt, current_module_generation ());
  uint32_t id = stack_context_id (frame, pt);
  h->alloc_context_id = id;
  h->alloc_cpu = current_cpu ();
  h->alloc_timestamp = now_ms ();
  h->requested_size = size;
  h->data_type_id = 0;
  h->epoch = profile_epoch;
  if (Sampled)
    {
      h->flags |= kChunkSampled;
      live_alloc (depot_live (id), h->alloc_timestamp,
                  sampled_live_amount (size));
    }
  else
    live_alloc (depot_live (id), size, h->alloc_timestamp);
  // A free primary block's shadow is zero (end_life leaves it so); a
  // secondary block is fresh memory whose shadow may hold counts of
  // whatever was mapped there before, or a block kept by realloc whose
  // slack the program may have written.
  if (UNLIKELY (h->flags & kChunkSecondary))
    {
      if (!clean || UNLIKELY (histogram_mode))
        shadow_clear ((uintptr_t) p, size, h->flags & kChunkReused);
      else
        // A second pass over a large block's shadow at every realloc
        // that grows it in place made growing it quadratic.
        shadow_clear_range (round_up ((uintptr_t) p + clean,
                                      MEMPROF_GRANULE_SIZE),
                            (uintptr_t) p + size);
      if (UNLIKELY (histogram_mode))
        histogram_clear_range ((uintptr_t) p, (uintptr_t) p + (size ? size : 1));
    }
}

// end_life in histogram mode: the block's slots go into its context's
// histogram, and the slot shadow is left zero like the granule shadow.
MEMPROF_NOINLINE void
end_life_histogram (void *p, ChunkHeader *h, bool profiled)
{
  uintptr_t u = (uintptr_t) p;
  size_t size = h->requested_size;
  uintptr_t block_end = u + (size ? size : 1);
  if (profiled)
    record_life (h, histogram_take_block (h->alloc_context_id, u, size, true));
  else
    histogram_clear_range (u, block_end);
  // The rest of a primary block's span (the block's own slots are zero
  // by now): slack after it, room before an over-aligned pointer.
  if (LIKELY (!(h->flags & kChunkSecondary)))
    {
      uintptr_t begin, end;
      allocator_primary_span (p, h, &begin, &end);
      histogram_clear_range (begin, u);
      histogram_clear_range (round_up (block_end, MEMPROF_HISTOGRAM_SLOT_SIZE),
                             end);
    }
}

MEMPROF_NOINLINE void
start_sampled_life (void *p, ChunkHeader *h, size_t size, uintptr_t frame,
                    size_t clean)
{
  stamp_life<true> (p, h, size, frame, clean);
}

// SAMPLED: a sampled block of the sampling mode, else an exact one.
// CLEAN: as for stamp_life.
MEMPROF_ALWAYS_INLINE void
start_life (void *p, ChunkHeader *h, size_t size, uintptr_t frame,
            bool sampled, size_t clean = 0)
{
  if (UNLIKELY (sampled))
    start_sampled_life (p, h, size, frame, clean);
  else
    stamp_life<false> (p, h, size, frame, clean);
}

// End the life of block P whose header H was claimed from state OLD
// (kChunkAllocated or kChunkReported): fold its counters into its
// context unless a dump already reported it, and leave its shadow zero.
// SAMPLED: a sampled block of the sampling mode; UNPROFILED: one that
// stands for nothing (kChunkUnprofiled).
template <bool Sampled, bool Unprofiled = false>
MEMPROF_ALWAYS_INLINE void
finish_life (void *p, ChunkHeader *h, uint8_t old, bool keep_pages)
{
  uintptr_t u = (uintptr_t) p;
  size_t size = h->requested_size;
  bool profiled = old == kChunkAllocated && h->epoch == profile_epoch;
  if (Unprofiled)
    ;
  else if (Sampled)
    live_free (depot_live (h->alloc_context_id),
               sampled_live_amount (size));
  else
    live_free (depot_live (h->alloc_context_id), size);
  if (UNLIKELY (histogram_mode))
    {
      // (Never a sampled block: sampler_init keeps the histogram mode
      // exact.)
      end_life_histogram (p, h, profiled);
      return;
    }
  if (LIKELY (!(h->flags & kChunkSecondary)))
    {
      // Leave the whole block's shadow zero for its next allocation:
      // also the granules outside [P, P + SIZE) (slack the program may
      // use, the area before an aligned block's user pointer).
      uintptr_t begin, end;
      allocator_primary_span (p, h, &begin, &end);
      if (profiled)
        record_life<Sampled> (h, shadow_collect_span (u, size, begin, end));
      else
        shadow_clear_range (begin, end);
    }
  else if (profiled)
    record_life<Sampled> (h, shadow_collect (u, size, keep_pages));
  else
    shadow_clear (u, size, keep_pages);
}

// A sampled block of the sampling mode.  (Out of line: inlined, it made
// the exact mode's free path longer.)
MEMPROF_NOINLINE void
end_sampled_life (void *p, ChunkHeader *h, uint8_t old, bool keep_pages)
{
  if (h->flags & kChunkUnprofiled)
    finish_life<false, true> (p, h, old, keep_pages);
  else
    finish_life<true> (p, h, old, keep_pages);
}

// KEEP_PAGES: a secondary block's shadow pages stay in use after this
// life (realloc keeps the block in place, or its freed mapping is kept
// for another block): its counters are zeroed where they are, not given
// back with madvise (shadow.h).
MEMPROF_ALWAYS_INLINE void
end_life (void *p, ChunkHeader *h, uint8_t old, bool keep_pages)
{
  if (UNLIKELY (h->flags & (kChunkSampled | kChunkUnprofiled)))
    end_sampled_life (p, h, old, keep_pages);
  else
    finish_life<false> (p, h, old, keep_pages);
}

// FN got P, whose header H (null: P is no block) is not a live block's:
// report it as FREED (a block already freed) or as an invalid pointer.
MEMPROF_NOINLINE void
report_bad_pointer (const char *fn, const char *freed, const ChunkHeader *h,
                    const void *p)
{
  bool was_freed
    = h && __atomic_load_n (&h->state, __ATOMIC_ACQUIRE) == kChunkFree;
  report_invalid_free (fn, was_freed ? freed : "invalid pointer", p);
}

// Whether realloc to SIZE keeps a block of USABLE bytes: when it fits
// and wastes at most half of it (small blocks are kept whenever they
// fit: moving them would save next to nothing).
inline bool
realloc_in_place (size_t size, size_t usable)
{
  return size <= usable && (size >= usable / 2 || usable <= 256);
}

// A block of our allocator, profiled (SAMPLED: weighted; FLAGS: more
// ChunkFlags, kChunkCertain).
template <bool Sampled>
MEMPROF_ALWAYS_INLINE void *
allocate_block (size_t size, size_t align, uintptr_t frame, bool zero,
                uint8_t flags = 0)
{
  void *p = allocator_allocate (size, align < 32 ? 32 : align);
  if (UNLIKELY (!p))
    {
      errno = ENOMEM;
      return nullptr;
    }
  ChunkHeader *h = header_before (p);
  h->flags |= flags;
  start_life (p, h, size, frame, Sampled);
  // calloc: every usable byte is zero (glibc's contract), slack included,
  // since malloc_usable_size promises it to the program.  A secondary
  // block from a fresh anonymous mapping is already zero; one in a kept
  // mapping (kChunkReused) is not.
  if (zero && (h->flags & (kChunkSecondary | kChunkReused)) != kChunkSecondary)
    internal_memset (p, 0, allocator_usable_size (p, h));
  __atomic_store_n (&h->state, kChunkAllocated, __ATOMIC_RELEASE);
  return p;
}

// The flags that say what a life of a block stands for.
constexpr uint8_t kLifeKindFlags = kChunkSampled | kChunkCertain
                                   | kChunkUnprofiled;

// End the life of our block P (header H) that realloc keeps in place;
// KIND: the flags of what its next life stands for.  False (reported,
// errno ENOMEM) when P was freed meanwhile.
bool
end_life_in_place (void *p, ChunkHeader *h, uint8_t kind)
{
  uint8_t old = claim_live (h);
  if (UNLIKELY (old == kChunkFree))
    {
      report_bad_pointer ("realloc", "freed block", h, p);
      errno = ENOMEM;
      return false;
    }
  end_life (p, h, old, true);
  h->flags = (uint8_t) ((h->flags & ~kLifeKindFlags) | kind);
  return true;
}

// Realloc of our block P (header H) in place for an unsampled
// allocation of SIZE bytes, in the sampling mode: it stays ours,
// standing for nothing (kChunkUnprofiled), instead of being copied into
// a C library block.  (A block realloc grows a few bytes at a time,
// once about as large as the interval, is sampled at about half the
// calls: it went back and forth, a copy each time.)
void *
keep_unprofiled (void *p, ChunkHeader *h, size_t size)
{
  if (!(h->flags & kChunkUnprofiled))
    {
      if (!end_life_in_place (p, h, kChunkUnprofiled))
        return nullptr;
      __atomic_store_n (&h->state, kChunkReported, __ATOMIC_RELEASE);
    }
  // Its counters are read by no one: the end of its unprofiled life
  // clears them, as any life's end not recorded does.
  h->requested_size = size;
  return p;
}

// Realloc into the new block Q (null: failed, P is left alone): the
// bytes of P's USABLE that fit, then P freed.
void *
move_block (void *q, void *p, size_t usable, size_t size)
{
  if (!q)
    return nullptr;
  // Every byte malloc_usable_size promised is the program's, slack
  // included (string libraries and zmalloc-style wrappers write there):
  // keep all of them that fit.  The copy is the runtime's, not counted.
  internal_memcpy (q, p, usable < size ? usable : size);
  deallocate (p);
  return q;
}

// Realloc of our block P (USABLE bytes) into a new block of ours of
// SIZE bytes, SAMPLED or CERTAIN (the sampling mode's kinds) or exact.
void *
move_to_new (void *p, size_t usable, size_t size, uintptr_t frame,
             bool sampled, bool certain)
{
  return move_block (sampled   ? allocate_sampled (size, kLibcMallocAlign,
                                                   frame, false)
                     : certain ? allocate_certain (size, kLibcMallocAlign,
                                                   frame, false)
                               : allocate_exact (size, kLibcMallocAlign,
                                                 frame, false),
                     p, usable, size);
}

// Realloc of the mapped block P (header H, USABLE bytes) to SIZE bytes,
// more than USABLE: its mapping grows (mremap), so nothing is copied,
// as glibc grows its mapped chunks; a copy when the kernel refuses.  A
// new life under the realloc caller's stack, as in place; SAMPLED,
// CERTAIN: as for move_to_new.
MEMPROF_NOINLINE void *
grow_mapped (void *p, ChunkHeader *h, size_t usable, size_t size,
             uintptr_t frame, bool sampled, bool certain)
{
  // Claimed first, as a block kept in place is: a heap walk leaves it
  // alone until the new life starts, and never reads it while its pages
  // move (the allocator takes it off the walk's list meanwhile).
  uint8_t old = claim_live (h);
  if (UNLIKELY (old == kChunkFree))
    {
      report_bad_pointer ("realloc", "freed block", h, p);
      errno = ENOMEM;
      return nullptr;
    }
  void *q = allocator_grow_secondary (p, size);
  if (UNLIKELY (!q))
    {
      // The old life goes on, as if the claim had not been made.
      __atomic_store_n (&h->state, old, __ATOMIC_RELEASE);
      return move_to_new (p, usable, size, frame, sampled, certain);
    }
  // The header moved with the pages; the shadow did not: the old life's
  // counters are still P's.
  h = header_before (q);
  size_t old_size = h->requested_size;
  end_life (p, h, old, q == p);
  h->flags = (uint8_t) ((h->flags & ~kLifeKindFlags)
                        | (certain ? kChunkCertain : 0));
  size_t clean = old_size;
  if (q != p)
    {
      // Nothing is at P now: end_life cleared the old block's counters,
      // the rest go too (slack the program may have written).  The new
      // place's may be anyone's: the new life clears them all.
      uintptr_t u = (uintptr_t) p;
      shadow_clear_range (u + old_size, u + usable);
      if (UNLIKELY (histogram_mode))
        histogram_clear_range (u + old_size, u + usable);
      clean = 0;
    }
  start_life (q, h, size, frame, sampled, clean);
  __atomic_store_n (&h->state, kChunkAllocated, __ATOMIC_RELEASE);
  return q;
}

} // namespace

void *
allocate_exact (size_t size, size_t align, uintptr_t frame, bool zero)
{
  return allocate_block<false> (size, align, frame, zero);
}

void *
allocate_sampled (size_t size, size_t align, uintptr_t frame, bool zero)
{
  return allocate_block<true> (size, align, frame, zero);
}

void *
allocate_certain (size_t size, size_t align, uintptr_t frame, bool zero)
{
  return allocate_block<false> (size, align, frame, zero, kChunkCertain);
}

MEMPROF_NOINLINE void
deallocate_profiled (void *p)
{
  deallocate (p);
}

void
deallocate_ours (void *p)
{
  if (!p)
    return;
  ChunkHeader *h = allocator_header (p);
  if (UNLIKELY (!h))
    {
      report_bad_pointer ("free", "double free of", nullptr, p);
      return;
    }
  uint8_t old = claim_live (h);
  if (UNLIKELY (old == kChunkFree))
    {
      // Reported, then (abort_on_invalid_free=0) ignored: the free lists
      // are left alone.
      report_bad_pointer ("free", "double free of", h, p);
      return;
    }
  end_life (p, h, old,
            UNLIKELY (h->flags & kChunkSecondary) && allocator_may_keep (p));
  allocator_release (p, h);
}

void *
reallocate (void *p, size_t size, uintptr_t frame)
{
  if (!p)
    return allocate (size, kLibcMallocAlign, frame, false);
  if (size == 0)
    {
      // glibc: realloc (p, 0) frees P and returns null.
      deallocate (p);
      return nullptr;
    }
  ChunkHeader *h = allocator_header (p);
  if (UNLIKELY (!h) && libc_heap_in_use)
    return reallocate_foreign (p, size, frame);
  uint8_t st = h ? __atomic_load_n (&h->state, __ATOMIC_ACQUIRE) : 0;
  if (UNLIKELY (!h || (st != kChunkAllocated && st != kChunkReported)))
    {
      // Reported; with abort_on_invalid_free=0 the old block is left
      // alone and realloc fails.
      report_bad_pointer ("realloc", "freed block", h, p);
      errno = ENOMEM;
      return nullptr;
    }
  size_t usable = allocator_usable_size (p, h);
  // The sampling mode: the new block is a new allocation for the
  // sampler, ours when sampled, the C library's when not; tallied at
  // its site, and ours with weight 1 when the site is new to the thread.
  bool sampled = false, certain = false;
  if (UNLIKELY (sample_interval != 0) && !sampling_stopped ())
    {
      BlockKind kind = sampling_mode_kind (size, frame);
      if (kind == BlockKind::kUnsampled && realloc_in_place (size, usable))
        return keep_unprofiled (p, h, size);
      if (kind == BlockKind::kUnsampled)
        return move_block (allocate_unsampled (size, kLibcMallocAlign, false),
                           p, usable, size);
      sampled = kind == BlockKind::kSampled;
      certain = kind == BlockKind::kExact;
    }
  if (realloc_in_place (size, usable))
    {
      // glibc keeps a block that fits.  It is still a new allocation
      // under the realloc caller's stack: the old life ends here, the
      // new one starts with fresh counters.
      size_t old_size = h->requested_size;
      if (!end_life_in_place (p, h, certain ? kChunkCertain : 0))
        return nullptr;
      start_life (p, h, size, frame, sampled, old_size);
      __atomic_store_n (&h->state, kChunkAllocated, __ATOMIC_RELEASE);
      return p;
    }
  if (UNLIKELY (h->flags & kChunkSecondary) && size > usable)
    return grow_mapped (p, h, usable, size, frame, sampled, certain);
  return move_to_new (p, usable, size, frame, sampled, certain);
}

// What malloc_usable_size says of a block of ours: what glibc gives a
// request of its size carved from its heap (16-byte steps past an
// 8-byte chunk header, 24 bytes at least), where the block has that
// room.  Our size classes are up to a quarter larger than the request:
// a program that grows into its usable bytes (redis's strings and
// listpacks) reallocated a tenth as often as under glibc, and its
// malloc_usable_size accounting read a fifth higher.  The rest of
// the block is slack nobody is promised; realloc still copies it all.
inline size_t
promised_usable (size_t requested, size_t room)
{
  size_t glibc = requested > SIZE_MAX - 32
                   ? room
                   : ((requested + 8 + 15) & ~(size_t) 15) - 8;
  if (glibc < 24)
    glibc = 24;
  return glibc < room ? glibc : room;
}

size_t
usable_size (const void *p)
{
  if (!p)
    return 0;
  ChunkHeader *h = allocator_header (p);
  if (!h)
    return libc_heap_in_use ? libc_heap.usable_size ((void *) p) : 0;
  return promised_usable (h->requested_size, allocator_usable_size (p, h));
}

void
forget_runtime_block (void *p, const LivePeakMark &mark)
{
  ChunkHeader *h = p ? allocator_header (p) : nullptr;
  if (!h)
    return;
  uint8_t old = claim_live (h);
  if (old == kChunkFree)
    return;
  if (old == kChunkAllocated && !(h->flags & kChunkUnprofiled)
      && h->epoch == profile_epoch)
    {
      // (An exact block's amount is its size and one block.)
      LiveAmount a = live_amount (h);
      live_free (depot_live (h->alloc_context_id), a);
      live_undo_peak (mark, a.bytes, live_whole_blocks (a));
      h->flags = (uint8_t) ((h->flags & ~kLifeKindFlags) | kChunkUnprofiled);
      old = kChunkReported;
    }
  __atomic_store_n (&h->state, old, __ATOMIC_RELEASE);
}

void
retire_other_epochs (uint16_t epoch)
{
  heap_walk_begin ();
  allocator_for_each_allocated (retire_one, &epoch);
  heap_walk_end ();
}

void
report_live_blocks ()
{
  heap_walk_begin ();
  allocator_for_each_allocated (report_one_live, nullptr);
  heap_walk_end ();
}

} // namespace memprof
