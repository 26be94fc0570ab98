// The stack depot: allocation call stacks deduplicated into ids.

#ifndef MEMPROF_STACK_DEPOT_H
#define MEMPROF_STACK_DEPOT_H

#include <stddef.h>
#include <stdint.h>

namespace memprof {

struct PerThread;
struct ContextLive;

// The id of the stack PCS[0..N) (frame 0 first), inserting it if new.
// Never 0; 0 is returned only when the depot is out of memory.  PT (may
// be null) holds the calling thread's cache of recent stacks.
uint32_t depot_put (const uintptr_t *pcs, uint32_t n, PerThread *pt);

// The frames of stack ID; returns the number of frames, 0 if unknown.
// GENERATION (may be null) receives the module generation it was
// recorded in.
uint32_t depot_get (uint32_t id, const uintptr_t **pcs,
                    uint32_t *generation = nullptr);

// Retire every stack recorded before GENERATION with a frame for which
// IN_MODULE holds: no later lookup finds it, its id still reads back.
// Returns how many were retired.  Runs beside lookups and insertions.
size_t depot_retire (bool (*in_module) (uintptr_t pc, void *arg), void *arg,
                     uint32_t generation);

// Stacks recorded so far (a walk of the list of them: for reports only).
size_t depot_stack_count ();

// The depot's reserved arena (null until the first stack): a stack's id
// is its node's offset in it in 8-byte words, plus one.
extern char *depot_arena;
// Where a node's live-heap counters are (stack_depot.cpp asserts it).
constexpr size_t kDepotLiveOffset = 32;

// The live-heap counters of stack ID (an id depot_put returned), or
// null for 0.  Inline: every allocation and free asks.
inline ContextLive *
depot_live (uint32_t id)
{
  if (__builtin_expect (!id, 0))
    return nullptr;
  return (ContextLive *) (depot_arena + (size_t) (id - 1) * 8
                          + kDepotLiveOffset);
}

} // namespace memprof

#endif
