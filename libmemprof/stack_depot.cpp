// The stack depot.  A hash table of chains whose heads are updated with
// compare-and-swap: lookups take no lock and inserting threads never wait
// for each other, so allocation never serialises on it.  Nodes live in
// one reserved arena and are never freed; a stack's id is its node's
// offset in the arena (in 8-byte words, plus one), so ids are stable,
// never reused, and turn back into stacks without a table.
//
// A node remembers the module generation it was recorded in
// (module_table.h).  When dlclose unmaps a module, the nodes with frames
// in it are retired: marked in their depth so no lookup matches them
// any more, while their ids keep reading back.  Every published node is
// also on one list, so that walk costs in proportion to the stacks
// recorded, not to the table's million buckets.

#include "stack_depot.h"
#include "internal.h"
#include "module_table.h"
#include "live_heap.h"
#include "per_thread.h"
#include "memprof/raw_format.h"

namespace memprof {

namespace {

struct StackNode
{
  StackNode *next;
  StackNode *next_recorded;   // The list of every published node.
  uint64_t hash;
  uint32_t depth;         // With kRetired once retired.
  uint32_t generation;    // Module generation it was recorded in.
  ContextLive live;       // The context's live heap (live_heap.h).
  uintptr_t pcs[];
};

static_assert (offsetof (StackNode, live) == kDepotLiveOffset,
               "stack_depot.h's depot_live must find the node's counters");

constexpr uint32_t kRetired = 1u << 31;

constexpr size_t kArenaSize = (size_t) 4 << 30;   // Reserved, not committed.
constexpr int kBucketBits = 20;
constexpr size_t kNumBuckets = (size_t) 1 << kBucketBits;

StackNode *buckets[kNumBuckets];
StackNode *recorded;     // Head of the list of every published node.
size_t arena_used;       // Bytes handed out (atomic).
SpinLock arena_init_lock;

uint64_t
hash_stack (const uintptr_t *pcs, uint32_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  for (uint32_t i = 0; i < n; i++)
    {
      h ^= pcs[i];
      h *= 0xff51afd7ed558ccdULL;
      h ^= h >> 32;
    }
  return h;
}

bool
same_stack (const StackNode *s, uint64_t h, const uintptr_t *pcs, uint32_t n)
{
  if (s->hash != h || s->depth != n)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (s->pcs[i] != pcs[i])
      return false;
  return true;
}

uint32_t
id_of (const StackNode *s)
{
  return (uint32_t) (((const char *) s - depot_arena) / 8 + 1);
}

StackNode *
new_node (uint32_t n)
{
  char *a = __atomic_load_n (&depot_arena, __ATOMIC_ACQUIRE);
  if (UNLIKELY (!a))
    {
      LockGuard g (arena_init_lock);
      if (!depot_arena)
        __atomic_store_n (&depot_arena,
                          (char *) map_memory (kArenaSize, true),
                          __ATOMIC_RELEASE);
      a = depot_arena;
      if (!a)
        return nullptr;
    }
  size_t size = sizeof (StackNode) + n * sizeof (uintptr_t);
  size_t off = __atomic_fetch_add (&arena_used, size, __ATOMIC_RELAXED);
  if (off + size > kArenaSize)
    return nullptr;
  return (StackNode *) (a + off);
}

uint32_t
put_hashed (const uintptr_t *pcs, uint32_t n, uint64_t h)
{
  StackNode **bucket = &buckets[h & (kNumBuckets - 1)];
  StackNode *head = __atomic_load_n (bucket, __ATOMIC_ACQUIRE);
  for (StackNode *s = head; s; s = s->next)
    if (same_stack (s, h, pcs, n))
      return id_of (s);
  StackNode *node = new_node (n);
  if (!node)
    return 0;
  node->hash = h;
  node->depth = n;
  node->generation = current_module_generation ();
  for (uint32_t i = 0; i < n; i++)
    node->pcs[i] = pcs[i];
  for (;;)
    {
      node->next = head;
      StackNode *seen = head;
      if (__atomic_compare_exchange_n (bucket, &head, node, false,
                                       __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
        {
          StackNode *first = __atomic_load_n (&recorded, __ATOMIC_ACQUIRE);
          do
            node->next_recorded = first;
          while (!__atomic_compare_exchange_n (&recorded, &first, node, true,
                                               __ATOMIC_RELEASE,
                                               __ATOMIC_ACQUIRE));
          return id_of (node);
        }
      // Another thread pushed first; it may have pushed this very stack.
      // (The node we made is abandoned: a few bytes, rarely.)
      for (StackNode *s = head; s != seen; s = s->next)
        if (same_stack (s, h, pcs, n))
          return id_of (s);
    }
}

} // namespace

char *depot_arena;

// A thread usually allocates from a handful of stacks over and over: its
// own cache maps a stack's hash to the id, checked against the stored
// frames (hot in cache for such stacks), so the shared table -- large,
// and a cache miss per lookup -- is only consulted for new stacks.
uint32_t
depot_put (const uintptr_t *pcs, uint32_t n, PerThread *pt)
{
  uint64_t h = hash_stack (pcs, n);
  if (UNLIKELY (!pt))
    return put_hashed (pcs, n, h);
  PerThread::StackSlot &slot = pt->stacks[h % PerThread::kStackSlots];
  if (slot.hash == h && slot.id)
    {
      const StackNode *s
        = (const StackNode *) (depot_arena + (size_t) (slot.id - 1) * 8);
      if (same_stack (s, h, pcs, n))
        return slot.id;
    }
  uint32_t id = put_hashed (pcs, n, h);
  slot.hash = h;
  slot.id = id;
  return id;
}

uint32_t
depot_get (uint32_t id, const uintptr_t **pcs, uint32_t *generation)
{
  char *a = __atomic_load_n (&depot_arena, __ATOMIC_ACQUIRE);
  if (!a || !id)
    return 0;
  size_t off = (size_t) (id - 1) * 8;
  if (off >= __atomic_load_n (&arena_used, __ATOMIC_RELAXED))
    return 0;
  const StackNode *s = (const StackNode *) (a + off);
  *pcs = s->pcs;
  if (generation)
    *generation = s->generation;
  return s->depth & ~kRetired;
}

size_t
depot_retire (bool (*in_module) (uintptr_t pc, void *arg), void *arg,
              uint32_t generation)
{
  size_t retired = 0;
  for (StackNode *s = __atomic_load_n (&recorded, __ATOMIC_ACQUIRE); s;
       s = s->next_recorded)
    {
      if ((s->depth & kRetired) || s->generation >= generation)
        continue;
      for (uint32_t i = 0; i < s->depth; i++)
        if (in_module (s->pcs[i] & ~MEMPROF_RAW_PC_FLAGS, arg))
          {
            __atomic_or_fetch (&s->depth, kRetired, __ATOMIC_RELEASE);
            retired++;
            break;
          }
    }
  return retired;
}

size_t
depot_stack_count ()
{
  size_t n = 0;
  for (StackNode *s = __atomic_load_n (&recorded, __ATOMIC_ACQUIRE); s;
       s = s->next_recorded)
    n++;
  return n;
}


} // namespace memprof
