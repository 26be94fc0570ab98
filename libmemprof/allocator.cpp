// The block allocator.
//
// Primary: size classes (size_classes.h), each in its own region of one
// reserved (MAP_NORESERVE) space, so blocks of a class are contiguous,
// which lets a dump walk every block.  A block is carved once and then
// only moves between free lists.  Each thread keeps a cache per class
// (thread_cache.h; no lock, and inline in malloc and free when the list
// has what they need); caches exchange whole batches with a per-class
// global stack under that class's lock.
//
// A block is [ChunkHeader][user bytes...].  Free blocks keep their
// header (state kChunkFree) and link through their first user words:
//   user+0  next block in a list
//   user+8  next batch (batch head only)
//   user+16 blocks in the batch (batch head only)
//
// Secondary: blocks over 128 KiB (or aligned above a page) are mapped on
// their own with a LargeHeader in front of the ChunkHeader, and kept on
// a list so a dump can find them.  realloc grows one by growing its
// mapping (allocator_grow_secondary), as glibc does with mremap.

#include "allocator.h"
#include "internal.h"
#include "shadow.h"
#include "size_classes.h"
#include "thread_cache.h"

#include <pthread.h>
#include <sys/mman.h>

namespace memprof {

HeapSpan heap_span;

namespace {

constexpr uintptr_t kSpaceSize = kRegionSize * kNumClasses;
static_assert (kSpaceSize == kPrimarySpaceSize, "allocator.h's primary space size");

struct ClassRegion
{
  SpinLock lock;
  void *batches;        // Stack of free batches (user pointers).
  uintptr_t carved;     // Offset of the first block never handed out
                        // (class_first_block at the start).
};

struct LargeHeader
{
  uint64_t magic;
  uintptr_t map_start;
  size_t map_size;
  uint64_t unused;
  LargeHeader *prev;
  LargeHeader *next;
  uint64_t unused2[2];
};
static_assert (sizeof (LargeHeader) == 64, "large header is 64 bytes");
constexpr uint64_t kLargeMagic = 0x6d656d70726f664cULL;
constexpr uintptr_t kLargeOffset = sizeof (LargeHeader) + sizeof (ChunkHeader);

SpinLock init_lock;
ClassRegion regions[kNumClasses];

SpinLock large_lock;
LargeHeader large_list;   // Circular list head; next == 0 until first use.

// Caches are carved from mapped pages and recycled when threads exit.
SpinLock cache_pool_lock;
ThreadCache *free_caches;
char *cache_pool_cur, *cache_pool_end;

// Used by threads whose cache is gone (after their exit destructor) and
// when no cache can be mapped: shared, under a lock.
SpinLock orphan_lock;
ThreadCache orphan_cache;

MEMPROF_TLS bool thread_cache_dead;
pthread_key_t cache_key;
bool cache_key_ok;

inline void *&
batch_next (void *user)
{
  return *(void **) ((char *) user + 8);
}
inline uint64_t &
batch_count (void *user)
{
  return *(uint64_t *) ((char *) user + 16);
}

uintptr_t
region_base (int c)
{
  return heap_span.primary_base + (uintptr_t) c * kRegionSize;
}

// Where class C's first block starts: its blocks start there plus
// multiples of its block size.
uintptr_t
first_block_of (int c)
{
  return region_base (c) + class_table.first_block[c];
}

// Fill the empty LIST with up to a batch of blocks: a stored batch
// if there is one, else freshly carved blocks.  False when the region is
// exhausted.
bool
refill (int c, ThreadCache::List &list)
{
  ClassRegion &r = regions[c];
  r.lock.lock ();
  void *b = r.batches;
  if (b)
    {
      r.batches = batch_next (b);
      r.lock.unlock ();
      // Refill runs only on an empty list, and a batch is a chain ending
      // in null: it becomes the list as it is, without touching its
      // blocks (they are cold, often freed by another thread).
      list.count = (uint32_t) batch_count (b);
      list.head = b;
      return true;
    }
  r.lock.unlock ();
  uintptr_t size = class_table.block_size[c];
  uint32_t n = class_table.batch_blocks[c];
  uintptr_t off = __atomic_fetch_add (&r.carved, n * size, __ATOMIC_RELAXED);
  if (off + n * size > kRegionSize)
    return false;
  uintptr_t base = region_base (c) + off;
  // Link back to front so blocks are handed out in address order.
  for (uint32_t i = n; i-- > 0;)
    {
      void *user = (void *) (base + i * size + sizeof (ChunkHeader));
      link_next (user) = list.head;
      list.head = user;
    }
  list.count += n;
  return true;
}

// Put the chain HEAD of N blocks (ending in null) on the class's global
// stack as one batch.
void
push_batch (int c, void *head, uint32_t n)
{
  batch_count (head) = n;
  ClassRegion &r = regions[c];
  LockGuard g (r.lock);
  batch_next (head) = r.batches;
  r.batches = head;
}

void
drain_cache (ThreadCache *tc)
{
  for (int c = 0; c < kNumClasses; c++)
    {
      ThreadCache::List &list = tc->lists[c];
      if (list.count)
        push_batch (c, list.head, list.count);
      if (list.spare)
        push_batch (c, list.spare, list.spare_count);
      list.head = list.spare = nullptr;
      list.count = list.spare_count = 0;
    }
}

void
cache_destructor (void *arg)
{
  ThreadCache *tc = (ThreadCache *) arg;
  thread_cache = nullptr;
  thread_cache_dead = true;
  if (!tc)
    return;
  drain_cache (tc);
  LockGuard g (cache_pool_lock);
  tc->next_free = free_caches;
  free_caches = tc;
}

ThreadCache *
new_cache ()
{
  LockGuard g (cache_pool_lock);
  ThreadCache *tc = free_caches;
  if (tc)
    {
      free_caches = tc->next_free;
      return tc;
    }
  size_t sz = round_up (sizeof (ThreadCache), 64);
  if (cache_pool_cur + sz > cache_pool_end)
    {
      size_t chunk = 256 * 1024;
      char *p = (char *) map_memory (chunk, false);
      if (!p)
        return nullptr;
      cache_pool_cur = p;
      cache_pool_end = p + chunk;
    }
  tc = (ThreadCache *) cache_pool_cur;
  cache_pool_cur += sz;
  return tc;   // Fresh mapped memory: all lists empty.
}

// The calling thread's cache, created on first use; null means "use the
// orphan cache under its lock".
inline ThreadCache *
get_cache ()
{
  ThreadCache *tc = thread_cache;
  if (LIKELY (tc))
    return tc;
  if (thread_cache_dead)
    return nullptr;
  tc = new_cache ();
  if (!tc)
    return nullptr;
  thread_cache = tc;
  if (cache_key_ok)
    pthread_setspecific (cache_key, tc);
  return tc;
}

// The calling thread's cache or, for a thread that has none (yet or any
// more), the shared orphan cache, held locked for the guard's lifetime.
class CacheAccess
{
public:
  CacheAccess () : tc_ (get_cache ()), orphan_ (!tc_)
  {
    if (UNLIKELY (orphan_))
      {
        orphan_lock.lock ();
        tc_ = &orphan_cache;
      }
  }
  ~CacheAccess ()
  {
    if (UNLIKELY (orphan_))
      orphan_lock.unlock ();
  }
  CacheAccess (const CacheAccess &) = delete;
  CacheAccess &operator= (const CacheAccess &) = delete;
  ThreadCache::List &list (int c) { return tc_->lists[c]; }

private:
  ThreadCache *tc_;
  bool orphan_;
};

void *
primary_pop (int c)
{
  CacheAccess cache;
  ThreadCache::List &list = cache.list (c);
  if (UNLIKELY (!list.head))
    {
      if (list.spare)
        {
          list.head = list.spare;
          list.count = list.spare_count;
          list.spare = nullptr;
        }
      else if (!refill (c, list))
        return nullptr;
    }
  return list_pop (list);
}

void
primary_push (int c, void *user)
{
  CacheAccess cache;
  ThreadCache::List &list = cache.list (c);
  link_next (user) = list.head;
  list.head = user;
  if (UNLIKELY (++list.count >= class_table.batch_blocks[c]))
    thread_cache_set_aside (c, list);
}

// Put LH on the list of secondary blocks, widening the secondary span
// over its mapping first (readers load the two ends without the lock),
// so the span covers the block before it is handed out.
void
link_large (LargeHeader *lh)
{
  LockGuard g (large_lock);
  uintptr_t lo = lh->map_start, hi = lo + lh->map_size;
  if (!heap_span.secondary_hi || lo < heap_span.secondary_lo)
    __atomic_store_n (&heap_span.secondary_lo, lo, __ATOMIC_RELAXED);
  if (hi > heap_span.secondary_hi)
    __atomic_store_n (&heap_span.secondary_hi, hi, __ATOMIC_RELAXED);
  if (!large_list.next)
    large_list.next = large_list.prev = &large_list;
  lh->next = large_list.next;
  lh->prev = &large_list;
  large_list.next->prev = lh;
  large_list.next = lh;
}

// Take LH off the list: no heap walk reads its headers from now on.  It
// is left linked to itself, so taking it off again changes nothing.
void
unlink_large (LargeHeader *lh)
{
  LockGuard g (large_lock);
  lh->prev->next = lh->next;
  lh->next->prev = lh->prev;
  lh->prev = lh->next = lh;
}

// Mappings of freed secondary blocks kept for the next large blocks
// that fit them, as glibc keeps a freed mapped chunk's size in its heap
// (its mmap threshold rises to it).  Unmapped at every free, tcc's
// token pools of 0.75-6 MiB, one set per compiled file, were mapped and
// faulted in again each time: 18 times glibc's page faults, 15% of the
// run.  At most kKeptMappings of them, kKeptBytes in all; a block takes
// the smallest at least as large as its own mapping and at most twice
// as large (realloc then keeps it in place up to the mapping's end, as
// it keeps any block that would use half of it).  Under large_lock.
constexpr size_t kKeptMappings = 32;
constexpr size_t kKeptBytes = (size_t) 64 << 20;
struct KeptMapping
{
  uintptr_t start;
  size_t size;
};
KeptMapping kept[kKeptMappings];
size_t kept_count, kept_bytes;

// Whether a mapping of SIZE bytes freed now would be kept.
bool
has_room_to_keep (size_t size)
{
  size_t count = __atomic_load_n (&kept_count, __ATOMIC_RELAXED);
  size_t bytes = __atomic_load_n (&kept_bytes, __ATOMIC_RELAXED);
  return count < kKeptMappings && size <= kKeptBytes - bytes;
}

// Take kept[I] off the list (large_lock held): the last takes its place.
KeptMapping
drop_kept (size_t i)
{
  KeptMapping k = kept[i];
  __atomic_store_n (&kept_bytes, kept_bytes - k.size, __ATOMIC_RELAXED);
  __atomic_store_n (&kept_count, kept_count - 1, __ATOMIC_RELAXED);
  kept[i] = kept[kept_count];
  return k;
}

// A kept mapping for a block whose own would be MAP_SIZE bytes, taken
// off the list (its size in *SIZE), or null.
void *
take_kept (size_t map_size, size_t *size)
{
  LockGuard g (large_lock);
  size_t best = kept_count;
  for (size_t i = 0; i < kept_count; i++)
    if (kept[i].size >= map_size && kept[i].size / 2 <= map_size
        && (best == kept_count || kept[i].size < kept[best].size))
      best = i;
  if (best == kept_count)
    return nullptr;
  KeptMapping k = drop_kept (best);
  *size = k.size;
  return (void *) k.start;
}

// Keep the mapping [START, START + SIZE) of a freed block; false when
// there is no room (the caller unmaps it).
bool
keep_mapping (uintptr_t start, size_t size)
{
  LockGuard g (large_lock);
  if (!has_room_to_keep (size))
    return false;
  kept[kept_count] = { start, size };
  __atomic_store_n (&kept_count, kept_count + 1, __ATOMIC_RELAXED);
  __atomic_store_n (&kept_bytes, kept_bytes + size, __ATOMIC_RELAXED);
  return true;
}

// Unmap the kept mappings smaller than BELOW bytes.  A block that
// needs a fresh mapping gives back those less than half its own, which
// no block of its size could take: a program that has moved on to
// larger blocks (array_sweep: two 4 MiB grids freed, then 16 MiB of
// nodes) would otherwise keep the pages of the smaller ones at its peak,
// which glibc returns.  All of them (BELOW 0) when a mapping failed:
// the address space or memory they hold may be what it lacked (ulimit
// -v).
void
release_kept (size_t below)
{
  KeptMapping gone[kKeptMappings];
  size_t n = 0;
  {
    LockGuard g (large_lock);
    for (size_t i = 0; i < kept_count;)
      if (!below || kept[i].size < below)
        gone[n++] = drop_kept (i);
      else
        i++;
  }
  // Their blocks' counters were zeroed in place, to be written again by
  // the next block (shadow.h, KEEP_PAGES): give those pages back too.
  for (size_t i = 0; i < n; i++)
    {
      shadow_clear (gone[i].start, gone[i].size);
      unmap_memory ((void *) gone[i].start, gone[i].size);
    }
}

void *
secondary_allocate (size_t size, size_t align)
{
  uintptr_t ualign = align < 64 ? 64 : align;
  size_t map_size = round_up (size + kLargeOffset + ualign, kPageSize);
  uint8_t flags = kChunkSecondary;
  void *m = take_kept (map_size, &map_size);
  if (m)
    flags |= kChunkReused;
  else
    {
      if (__atomic_load_n (&kept_count, __ATOMIC_RELAXED))
        release_kept (map_size / 2);
      if (!(m = map_memory (map_size, false)))
        {
          if (!__atomic_load_n (&kept_count, __ATOMIC_RELAXED))
            return nullptr;
          release_kept (0);
          if (!(m = map_memory (map_size, false)))
            return nullptr;
        }
    }
  uintptr_t user = round_up ((uintptr_t) m + kLargeOffset, ualign);
  LargeHeader *lh = (LargeHeader *) (user - kLargeOffset);
  lh->magic = kLargeMagic;
  lh->map_start = (uintptr_t) m;
  lh->map_size = map_size;
  ChunkHeader *h = header_before ((void *) user);
  h->flags = flags;
  link_large (lh);
  return (void *) user;
}

LargeHeader *
large_header (const void *user)
{
  return (LargeHeader *) ((uintptr_t) user - kLargeOffset);
}

// Start of the class-C block holding user pointer U whose header is H.
// Only an aligned block's user pointer lies past the block's first
// header; the division by the class size is needed for those alone.
inline uintptr_t
primary_block_start (uintptr_t u, const ChunkHeader *h, int c)
{
  if (LIKELY (!(h->flags & kChunkAligned)))
    return u - sizeof (ChunkHeader);
  uintptr_t size = class_table.block_size[c];
  uintptr_t first = first_block_of (c);
  return first + (u - first) / size * size;
}

} // namespace

MEMPROF_TLS ThreadCache *thread_cache;

void
thread_cache_set_aside (int c, ThreadCache::List &list)
{
  // The batch set aside before goes to the global stack.
  if (list.spare)
    push_batch (c, list.spare, list.spare_count);
  list.spare = list.head;
  list.spare_count = list.count;
  list.head = nullptr;
  list.count = 0;
}

size_t
allocator_space_size ()
{
  return kSpaceSize;
}

bool
allocator_init ()
{
  if (__atomic_load_n (&heap_span.primary_base, __ATOMIC_ACQUIRE))
    return true;
  LockGuard g (init_lock);
  if (heap_span.primary_base)
    return true;
  void *p = map_memory (kSpaceSize, true);
  if (!p)
    return false;
  if (pthread_key_create (&cache_key, cache_destructor) == 0)
    cache_key_ok = true;
  for (int c = 0; c < kNumClasses; c++)
    regions[c].carved = class_table.first_block[c];
  __atomic_store_n (&heap_span.primary_base, (uintptr_t) p, __ATOMIC_RELEASE);
  return true;
}

void *
allocator_allocate_slow (size_t size, size_t align)
{
  if (size > kMaxAllocationSize || align > kMaxAllocationSize)
    return nullptr;
  uintptr_t body = round_up (size ? size : 1, 32);
  // Worst case for over-aligned blocks: the user pointer lands up to
  // ALIGN bytes into the block.
  uintptr_t needed = align > 32 ? body + align : body + sizeof (ChunkHeader);
  if (needed <= kMaxPrimaryBlock && align <= kPageSize)
    {
      int c = class_of_block_size (needed);
      void *first = primary_pop (c);
      if (LIKELY (first != nullptr))
        {
          if (align <= 32)
            {
              header_before (first)->flags = 0;
              return first;
            }
          uintptr_t block = (uintptr_t) first - sizeof (ChunkHeader);
          uintptr_t user = round_up ((uintptr_t) first, align);
          ChunkHeader *h = header_before ((void *) user);
          if (user == (uintptr_t) first)
            {
              h->flags = 0;
              return first;
            }
          ChunkHeader *start = (ChunkHeader *) block;
          start->requested_size = user - block;
          __atomic_store_n (&start->state, kChunkRedirect, __ATOMIC_RELEASE);
          h->flags = kChunkAligned;
          return (void *) user;
        }
    }
  return secondary_allocate (size, align);
}

ChunkHeader *
allocator_header_slow (const void *p)
{
  uintptr_t u = (uintptr_t) p;
  if (u - heap_span.primary_base < kSpaceSize)
    {
      int c = primary_class_of (u);
      uintptr_t offset = u - region_base (c);
      if ((u & 31) || offset < sizeof (ChunkHeader))
        return nullptr;
      // A user pointer is just past a block's start, or (over-aligned)
      // where the redirect at the block's start says: anything else
      // (inside a block) is no pointer we returned.
      if (LIKELY (at_block_start (c, offset - sizeof (ChunkHeader))))
        return header_before (p);
      uintptr_t size = class_table.block_size[c];
      uintptr_t first = first_block_of (c);
      if (u < first)
        return nullptr;
      uintptr_t block = first + (u - first) / size * size;
      const ChunkHeader *start = (const ChunkHeader *) block;
      if (__atomic_load_n (&start->state, __ATOMIC_ACQUIRE) == kChunkRedirect
          && start->requested_size == u - block
          && (header_before (p)->flags & kChunkAligned))
        return header_before (p);
      return nullptr;
    }
  // Outside every secondary mapping (the C library's blocks in the
  // sampling mode, mostly): no block, decided without reading memory.
  if (!allocator_in_secondary_span (u) || (u & 63) || u < kLargeOffset)
    return nullptr;
  // A secondary block's user pointer is at least kLargeOffset into its
  // page or starts one (its header then ends the page before, which is
  // its mapping's).  Any other pointer is read no further: in the
  // sampling mode it is the C library's (sampling_heap.h), and the bytes
  // before it may belong to no mapping.
  uintptr_t in_page = u & (kPageSize - 1);
  if (in_page != 0 && in_page < kLargeOffset)
    return nullptr;
  if (large_header (p)->magic != kLargeMagic)
    return nullptr;
  return header_before (p);
}

bool
allocator_may_keep (const void *p)
{
  return has_room_to_keep (large_header (p)->map_size);
}

void
allocator_release_slow (void *p, ChunkHeader *h)
{
  if (UNLIKELY (h->flags & kChunkSecondary))
    {
      LargeHeader *lh = large_header (p);
      unlink_large (lh);
      lh->magic = 0;
      if (!keep_mapping (lh->map_start, lh->map_size))
        unmap_memory ((void *) lh->map_start, lh->map_size);
      return;
    }
  uintptr_t u = (uintptr_t) p;
  int c = primary_class_of (u);
  void *first = p;
  if (UNLIKELY (h->flags & kChunkAligned))
    {
      uintptr_t block = primary_block_start (u, h, c);
      ChunkHeader *start = (ChunkHeader *) block;
      __atomic_store_n (&start->state, kChunkFree, __ATOMIC_RELEASE);
      first = (void *) (block + sizeof (ChunkHeader));
    }
  primary_push (c, first);
}

void *
allocator_grow_secondary (void *p, size_t size)
{
  if (size > kMaxAllocationSize)
    return nullptr;
  LargeHeader *lh = large_header (p);
  uintptr_t offset = (uintptr_t) p - lh->map_start;
  size_t map_size = round_up (offset + size, kPageSize);
  // Off the list while its pages move: a heap walk holds large_lock
  // while it reads the listed headers, and it must never read this one
  // from a mapping that is going away.
  unlink_large (lh);
  void *m = remap_memory ((void *) lh->map_start, lh->map_size, map_size);
  if (m)
    {
      // The headers moved with the pages, at the same offset, so an
      // over-aligned block keeps its place in its mapping.
      lh = large_header ((void *) ((uintptr_t) m + offset));
      lh->map_start = (uintptr_t) m;
      lh->map_size = map_size;
    }
  link_large (lh);
  return m ? (void *) ((uintptr_t) m + offset) : nullptr;
}

size_t
allocator_usable_size (const void *p, const ChunkHeader *h)
{
  uintptr_t u = (uintptr_t) p;
  if (h->flags & kChunkSecondary)
    {
      LargeHeader *lh = large_header (p);
      return lh->map_start + lh->map_size - u;
    }
  int c = primary_class_of (u);
  return primary_block_start (u, h, c) + class_table.block_size[c] - u;
}

void
allocator_primary_span_slow (const void *p, const ChunkHeader *h,
                             uintptr_t *begin, uintptr_t *end)
{
  uintptr_t u = (uintptr_t) p;
  int c = primary_class_of (u);
  uintptr_t block = primary_block_start (u, h, c);
  *begin = block + sizeof (ChunkHeader);
  *end = block + class_table.block_size[c];
}

void
allocator_for_each_allocated (void (*fn) (ChunkHeader *, void *, void *),
                              void *arg)
{
  if (!heap_span.primary_base)
    return;
  for (int c = 0; c < kNumClasses; c++)
    {
      uintptr_t size = class_table.block_size[c];
      uintptr_t base = region_base (c);
      uintptr_t end = __atomic_load_n (&regions[c].carved, __ATOMIC_RELAXED);
      if (end > kRegionSize)
        end = kRegionSize;
      for (uintptr_t off = class_table.first_block[c]; off + size <= end;
           off += size)
        {
          uintptr_t b = base + off;
          ChunkHeader *h = (ChunkHeader *) b;
          uint8_t st = __atomic_load_n (&h->state, __ATOMIC_ACQUIRE);
          if (st == kChunkRedirect)
            {
              h = (ChunkHeader *) (b + h->requested_size
                                   - sizeof (ChunkHeader));
              st = __atomic_load_n (&h->state, __ATOMIC_ACQUIRE);
            }
          if (st == kChunkAllocated)
            fn (h, (void *) (h + 1), arg);
        }
    }
  // Secondary blocks: a block leaves the list under large_lock before
  // its mapping is unmapped or moved, so holding it keeps every listed
  // block readable.
  LockGuard g (large_lock);
  if (!large_list.next)
    return;
  for (LargeHeader *lh = large_list.next; lh != &large_list; lh = lh->next)
    {
      void *user = (void *) ((uintptr_t) lh + kLargeOffset);
      ChunkHeader *h = header_before (user);
      if (__atomic_load_n (&h->state, __ATOMIC_ACQUIRE) == kChunkAllocated)
        fn (h, user, arg);
    }
}

void
allocator_lock_all ()
{
  init_lock.lock ();
  cache_pool_lock.lock ();
  orphan_lock.lock ();
  for (ClassRegion &r : regions)
    r.lock.lock ();
  large_lock.lock ();
}

void
allocator_unlock_all ()
{
  large_lock.unlock ();
  for (ClassRegion &r : regions)
    r.lock.unlock ();
  orphan_lock.unlock ();
  cache_pool_lock.unlock ();
  init_lock.unlock ();
}

} // namespace memprof
