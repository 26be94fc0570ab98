// Per-thread caches: mapped in chunks, handed out once per thread, given
// back to a free list by a pthread key destructor when the thread exits.

#include "per_thread.h"
#include "internal.h"
#include "runtime.h"

#include <pthread.h>

namespace memprof {

namespace {

SpinLock pool_lock;
PerThread *free_list;
PerThread *all_list;       // Pushed under pool_lock, read without it.
char *pool_cur, *pool_end;
pthread_key_t key;
bool key_state;            // Guarded by pool_lock: key created.

MEMPROF_TLS bool exiting;

void
give_back (void *arg)
{
  PerThread *pt = (PerThread *) arg;
  per_thread_mine = nullptr;
  exiting = true;
  if (!pt)
    return;
  signals_thread_exit (pt);
  // The histograms before the records, as a free adds them (a dump
  // taking a record finds its block's slots).
  histogram_thread_exit (&pt->histogram);
  hib_thread_exit (&pt->hib);
  live_thread_exit (&pt->live);
  site_tally_thread_exit (&pt->site_tally);
  LockGuard g (pool_lock);
  pt->next_free = free_list;
  free_list = pt;
}

PerThread *
take ()
{
  LockGuard g (pool_lock);
  if (!key_state)
    {
      if (pthread_key_create (&key, give_back) != 0)
        return nullptr;
      key_state = true;
    }
  if (PerThread *pt = free_list)
    {
      free_list = pt->next_free;
      return pt;
    }
  size_t size = round_up (sizeof (PerThread), 64);
  if (pool_cur + size > pool_end)
    {
      size_t chunk = 64 * size;
      pool_cur = (char *) map_memory (chunk, false);
      if (!pool_cur)
        {
          pool_end = nullptr;
          return nullptr;
        }
      pool_end = pool_cur + chunk;
    }
  PerThread *pt = (PerThread *) pool_cur;
  pool_cur += size;
  // Fresh mapped memory: every slot empty.
  pt->next_all = all_list;
  __atomic_store_n (&all_list, pt, __ATOMIC_RELEASE);
  return pt;
}

} // namespace

MEMPROF_TLS PerThread *per_thread_mine;

PerThread *
per_thread_make ()
{
  if (exiting)
    return nullptr;
  PerThread *pt = take ();
  if (!pt)
    return nullptr;
  // Set before pthread_setspecific, which may allocate (and so come back
  // here).
  per_thread_mine = pt;
  pthread_setspecific (key, pt);
  signals_thread_start (pt);
  return pt;
}

void
per_thread_for_each (void (*fn) (PerThread *, void *), void *arg)
{
  for (PerThread *pt = __atomic_load_n (&all_list, __ATOMIC_ACQUIRE); pt;
       pt = pt->next_all)
    fn (pt, arg);
}

void
per_thread_lock ()
{
  pool_lock.lock ();
}

void
per_thread_unlock ()
{
  pool_lock.unlock ();
}

void
per_thread_forget_code (PerThread *pt, uint32_t generation)
{
  internal_memset (pt->rules, 0, sizeof pt->rules);
  stack_cache_clear (&pt->stack_cache);
  internal_memset (pt->stacks, 0, sizeof pt->stacks);
  pt->module_generation = generation;
}

} // namespace memprof
