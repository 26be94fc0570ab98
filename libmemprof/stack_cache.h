// The per-thread stack cache: the depot ids of a thread's recent stack
// walks, each kept with the stack words the walk read that mattered.
//
// Why a remembered walk may be trusted.  A walk is a pure function of
// the frame it starts from, its depth limit, the frame rules of the PCs
// it meets (facts of one module generation: the cache is emptied with
// the generation) and the stack words it reads.  The address of each
// word it reads is a function of the words read before it.  So a walk
// from the same frame that finds every logged word, read in the logged
// order, still holding its logged value, would redo the logged walk
// frame for frame: its stack is the logged one, and so is the depot id
// of that stack folded.  Reading in order means every address read is
// one the walk itself would read next, so a check never reads where a
// walk would not, and it stops at the first word that differs.  A word
// whose value no later step used (a saved rbp restored again before any
// step used rbp: unwind.cpp, PairLog) is not logged: the walk is the
// same whatever it holds.
//
// A hit therefore costs one load and one compare per word that mattered
// (two per frame with a frame pointer, one or two by the CFI), and no
// frame rule, folding or depot lookup.  A miss walks by the frame rules,
// logging the words, folds, looks the stack up in the depot and keeps
// the id.
//
// A walk's words are kept a step at a time, as a pair (a step that read
// one word has it twice): both words of a step are at addresses fixed
// by the words before it, so the two are read and compared together.
// The pairs of all walks go into one ring, each walk's contiguous; a
// walk whose pairs the ring has written over since is no longer kept.
// Walks are indexed in sets chosen by their first return address and
// start frame, kWays to a set, the least recently used replaced.  One
// key may have several walks: a stack slot reused by another call chain
// at the same depth (same return address and frame, other callers
// further out) has a walk per chain; each is checked in turn, and a
// check of the wrong one fails at the first step where they part.
//
// Where walks of one key keep differing (a recursion taking other
// branches at every depth), checking and logging them costs more than
// it saves, so a thread whose walks mostly check in vain walks plainly
// for a while (below).  Either way the stacks are those of a plain walk
// (stack_cache=0), which testsuite/memprof.runtime/stack-cache.exp
// checks.

#ifndef MEMPROF_STACK_CACHE_H
#define MEMPROF_STACK_CACHE_H

#include <stdint.h>

namespace memprof {

struct StackCache
{
  // The words one step read: at the start frame + OFFSET, VALUE.
  struct Pair
  {
    int32_t offset[2];
    uintptr_t value[2];
  };
  // A kept walk.
  struct Walk
  {
    uintptr_t frame;    // Its start frame (0: no walk),
    uintptr_t pc;       // and first return address: its key.
    uint32_t start;     // Ring position of its first pair.
    uint32_t pairs;     // Pairs it read.
    uint32_t id;        // Depot id of its folded stack.
    uint32_t used;      // When last used (TICK), for replacing.
  };

  // 256 sets: with 64, a program's 40-odd keys put five in one set in
  // some runs (the keys move with the load address and the stack's),
  // which then walked from scratch at every allocation.
  static constexpr uint32_t kSets = 256, kWays = 4;
  Walk walks[kSets * kWays];

  // The ring of pairs (96 KiB: some 250 walks 15 frames deep).
  // Positions count on (mod 2^32; the walks are forgotten when HEAD
  // wraps), slot = position % kRing.
  static constexpr uint32_t kRing = 4096;
  // Pairs a walk may have: stack_depth=60 with frame pointers.  A walk
  // is contiguous in the ring: one that could pass its end starts over
  // at slot 0.
  static constexpr uint32_t kMaxPairs = 64;
  Pair ring[kRing];
  uint32_t head;                // Position of the next pair.
  uint32_t tick;
  uint32_t max;                 // The depth limit of the kept walks.

  // After a window of kWindow walks of which more than half checked a
  // kept walk of their key in vain, the next kPlainWalks walks are plain
  // (no check, no log).  (A walk of a new key, as at the start, costs
  // only the log: it does not count.)
  static constexpr uint32_t kWindow = 64, kPlainWalks = 1024;
  uint32_t window_walks, window_missed;
  uint32_t plain_left;

  // A walk through the cache is in progress: a signal handler's
  // allocation walks plainly instead.
  bool busy;
};

// Forget every kept walk (a new module generation; a fresh cache).
void stack_cache_clear (StackCache *c);

// The set of the walks from FRAME whose first return address is PC.
inline StackCache::Walk *
stack_cache_set (StackCache *c, uintptr_t pc, uintptr_t frame)
{
  uint64_t h = (pc ^ (pc >> 29) ^ (frame * 0x9e3779b97f4a7c15ULL))
               * 0xbf58476d1ce4e5b9ULL;
  static_assert (StackCache::kSets == 256, "set index is 8 bits");
  return &c->walks[(h >> 56) * StackCache::kWays];
}

// Whether W's pairs are still in the ring.
inline bool
stack_cache_intact (const StackCache *c, const StackCache::Walk &w)
{
  return c->head - w.start <= StackCache::kRing;
}

// Whether every word walk W read from FRAME on still holds its value,
// checked a step at a time in the order walked.  (W intact.)
inline bool
stack_cache_holds (const StackCache *c, const StackCache::Walk &w,
                   uintptr_t frame)
{
  const StackCache::Pair *p = &c->ring[w.start % StackCache::kRing];
  for (uint32_t i = 0; i < w.pairs; i++)
    if (((*(const uintptr_t *) (frame + p[i].offset[0]) ^ p[i].value[0])
         | (*(const uintptr_t *) (frame + p[i].offset[1]) ^ p[i].value[1]))
        != 0)
      return false;
  return true;
}

// Count a walk; MISSED: it checked a kept walk in vain.
inline void
stack_cache_account (StackCache *c, bool missed)
{
  c->window_missed += missed;
  if (++c->window_walks < StackCache::kWindow)
    return;
  if (c->window_missed * 2 > c->window_walks)
    c->plain_left = StackCache::kPlainWalks;
  c->window_walks = c->window_missed = 0;
}

// The walk of SET to replace: one no longer kept, else the one used
// least recently.
inline StackCache::Walk &
stack_cache_victim (const StackCache *c, StackCache::Walk *set)
{
  uint32_t v = 0;
  for (uint32_t w = 0; w < StackCache::kWays; w++)
    {
      if (!set[w].frame || !stack_cache_intact (c, set[w]))
        return set[w];
      if ((int32_t) (set[w].used - set[v].used) < 0)
        v = w;
    }
  return set[v];
}

// Where the next walk's pairs go: a position from which kMaxPairs fit
// before the ring's end.  Forgets every walk when positions wrap.
inline uint32_t
stack_cache_start (StackCache *c)
{
  uint32_t start = c->head;
  if (start % StackCache::kRing > StackCache::kRing - StackCache::kMaxPairs)
    start += StackCache::kRing - start % StackCache::kRing;
  if (start < c->head)
    {
      stack_cache_clear (c);
      start = 0;
    }
  return start;
}

} // namespace memprof

#endif
