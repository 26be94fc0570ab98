// A thread's cache of free primary blocks, one list per size class,
// used without a lock.  The pop and push that find what they need in
// the list are inline in malloc and free (allocator.h); everything else
// (an empty list, a full one, a thread without a cache) is
// allocator.cpp's.
//
// A thread's cache of a class is a list being filled and at most one
// full batch set aside: a list that reaches a batch's size becomes that
// batch as it is (every list ends in null), so no free ever walks a list
// to cut a batch off it.  Free blocks link through their first user
// word.

#ifndef MEMPROF_THREAD_CACHE_H
#define MEMPROF_THREAD_CACHE_H

#include <stdint.h>

#include "chunk_header.h"
#include "internal.h"
#include "size_classes.h"

namespace memprof {

struct ThreadCache
{
  struct List
  {
    void *head;
    uint32_t count;
    uint32_t spare_count;
    void *spare;          // A full batch set aside, or null.
    void *unused;
  } lists[kNumClasses];
  ThreadCache *next_free;
};

// The calling thread's cache; null until its first allocation and after
// its exit destructor ran.
extern MEMPROF_TLS ThreadCache *thread_cache;

inline void *&
link_next (void *user)
{
  return *(void **) user;
}

// The first block of LIST (not empty), taken off it.
MEMPROF_ALWAYS_INLINE void *
list_pop (ThreadCache::List &list)
{
  void *user = list.head;
  void *next = link_next (user);
  list.head = next;
  list.count--;
  // The next block handed out is often cold (freed by another thread):
  // start fetching its link and header now, not at the next malloc.
  if (next)
    {
      __builtin_prefetch (next);
      __builtin_prefetch ((char *) next - sizeof (ChunkHeader), 1);
    }
  return user;
}

// The first block of class C in the calling thread's cache, taken off
// it; null when the thread has no cache or the list is empty.
MEMPROF_ALWAYS_INLINE void *
thread_cache_pop (int c)
{
  ThreadCache *tc = thread_cache;
  if (UNLIKELY (!tc))
    return nullptr;
  ThreadCache::List &list = tc->lists[c];
  if (UNLIKELY (!list.head))
    return nullptr;
  return list_pop (list);
}

// LIST of class C has just become a whole batch: set it aside.
void thread_cache_set_aside (int c, ThreadCache::List &list);

// Put the block at USER of class C on the calling thread's cache; false
// when the thread has no cache.
MEMPROF_ALWAYS_INLINE bool
thread_cache_push (int c, void *user)
{
  ThreadCache *tc = thread_cache;
  if (UNLIKELY (!tc))
    return false;
  ThreadCache::List &list = tc->lists[c];
  link_next (user) = list.head;
  list.head = user;
  if (UNLIKELY (++list.count >= class_table.batch_blocks[c]))
    thread_cache_set_aside (c, list);
  return true;
}

} // namespace memprof

#endif
