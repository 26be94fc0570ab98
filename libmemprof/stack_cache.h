// The per-thread stack cache, in two levels.
//
// Replay memos: the last walks, two-way set associative by their first
// return address and start frame, each with its start frame, its depth limit, every
// stack word it read (address and value) and the depot id of its stack.
// A walk is a pure function of those, so a walk from the same frame
// that finds every logged word unchanged is the logged walk: its id
// stands without stepping a frame.
//
// Steps: the steps of recent walks, each linked to the step its walk
// made next, so a walk stops where the rest of the stack is known (a
// deep stack that differs from known ones in its innermost frames costs
// those frames), and a walk that starts where a remembered one started
// gets that one's depot id without folding or hashing.
//
// Why a remembered step may be trusted.  A walk step is a pure function
// of its state (the return address PC, the stack pointer SP, the frame
// pointer BP), the frame rule at PC (a fact in one module generation)
// and the stack words it reads.  So when a new walk reaches a state a
// remembered step started from, and every word that step and the steps
// linked after it read still holds the value read, the new walk would
// redo those steps exactly: their frames are this walk's.  The words are
// checked in walk order, so every address read is one the walk itself
// would read next.  A stack slot reused by another call chain (same
// depth, same return address, different callers further out) fails the
// check at the first differing word, and the walk goes on by itself.
//
// Where walks keep making new steps (a recursion taking other branches at
// every depth) remembering them costs more than it saves, so a thread
// whose walks are mostly new steps walks plainly for a while (below).
// Either way the stacks are those of a plain walk (stack_cache=0), which
// testsuite/memprof.runtime/stack-cache.exp checks.

#ifndef MEMPROF_STACK_CACHE_H
#define MEMPROF_STACK_CACHE_H

#include <stdint.h>

namespace memprof {

struct StackCache
{
  // One cache line: a step of a walk.
  struct alignas (64) Step
  {
    uintptr_t pc, sp, bp;    // The state it started from.
    uintptr_t value[2];      // The words it read,
    int32_t addr_off[2];     // at SP + ADDR_OFF.
    uint32_t stamp;          // When it was remembered (0: never).
    uint32_t next;           // The step made after it, unless END,
    uint32_t next_stamp;     // remembered at NEXT_STAMP (else the link is dead).
    uint16_t frames_out;     // Frames it and the steps after it recorded.
    uint8_t bits;            // Words read (kReads), kRecords, end (kEndShift).
    uint8_t failed_walk;     // Walk (mod 256) in which its words did not hold.
  };
  static constexpr uint8_t kReads = 3, kRecords = 4, kEndShift = 3;
  // How a walk went on after a step: kLinked to NEXT; kEndStack: the
  // stack ended; kEndMax: stack_depth frames were recorded; kEndDead: on,
  // but not remembered (a link never followed).
  static constexpr uint8_t kLinked = 0, kEndStack = 1, kEndMax = 2,
                           kEndDead = 3;

  // Remembered steps, replaced oldest first.  Stamps are 32 bits: a link
  // lives only until its own step is replaced, kSteps remembers later.
  static constexpr uint32_t kSteps = 512;
  // The most steps one walk remembers (the rest of a deeper one is not).
  static constexpr uint32_t kMaxWalk = kSteps / 2;
  // State -> slot + 1 of the step last remembered from it (direct mapped).
  static constexpr uint32_t kTable = 1024;

  // Replay memos.
  static constexpr uint32_t kMemoSets = 32;
  static constexpr uint32_t kMemoReads = 66;   // 32 frames' worth.
  static constexpr uint32_t kNoMemo = ~0u;
  struct Memo
  {
    uint32_t n;          // Frames of the stack.
    uint32_t id;         // Depot id of the stack, 0 until known.
    uintptr_t frame;     // Start frame of the logged walk.
    uint32_t max;        // Its depth limit.
    uint32_t reads;      // Words logged; kNoMemo when they did not fit.
    uint32_t slot;       // The walk's first step (kNoStep: none), which
    uint32_t slot_stamp; // holds the id too while it has this stamp.
    struct Read
    {
      uintptr_t addr, value;
    } read[kMemoReads];
  } memos[2 * kMemoSets];
  uintptr_t memo_key[2 * kMemoSets];   // Start of each memo's walk (memo_for).
  uint8_t memo_recent[kMemoSets];      // Way of each set used last.

  // When walks keep making new steps (a recursion taking other branches
  // at every depth), remembering them costs more than it saves: after a
  // window of kWindow walks whose new steps were more than half their
  // frames, the next kPlainWalks walks step through every frame.
  static constexpr uint32_t kWindow = 64, kPlainWalks = 1024;
  uint32_t window_walks, window_fresh, window_frames;
  uint32_t plain_left;

  // Steps.
  uint32_t max;          // The depth limit the steps were made with.
  uint32_t cursor;       // The slot to fill next.
  uint32_t stamp;        // Last stamp handed out.
  uint8_t walk;          // Number (mod 256, never 0) of the current walk.
  bool busy;             // A walk is in progress (a signal handler's walk skips the cache).
  uint32_t table[kTable];
  // Depot id of the walk that starts at each step, 0 unknown.
  uint32_t id[kSteps];
  Step steps[kSteps];
};

constexpr uint32_t kNoStep = ~0u;

// Count a walk that made FRESH new steps for FRAMES frames.
inline void
stack_cache_account (StackCache *c, uint32_t fresh, uint32_t frames)
{
  c->window_fresh += fresh;
  c->window_frames += frames;
  if (++c->window_walks < StackCache::kWindow)
    return;
  if (c->window_fresh * 2 > c->window_frames)
    c->plain_left = StackCache::kPlainWalks;
  c->window_walks = c->window_fresh = c->window_frames = 0;
}

// Forget everything (a new module generation; a fresh cache).  (The
// memos need not be forgotten: a memo's words are checked before use;
// but its id is of stacks of the old generation.)
void stack_cache_clear (StackCache *c);

// The remembered step that started from state (PC, SP, BP), or kNoStep.
inline uint32_t
stack_cache_table_index (uintptr_t pc, uintptr_t sp)
{
  static_assert (StackCache::kTable == 1024, "index is 10 bits");
  return (uint32_t) (((pc ^ (sp << 17) ^ (sp >> 3)) * 0x9e3779b97f4a7c15ULL)
                     >> 54);
}

inline uint32_t
stack_cache_find (const StackCache *c, uintptr_t pc, uintptr_t sp,
                  uintptr_t bp)
{
  uint32_t e = c->table[stack_cache_table_index (pc, sp)];
  if (e == 0)
    return kNoStep;
  const StackCache::Step &t = c->steps[e - 1];
  if (t.pc != pc || t.sp != sp || t.bp != bp)
    return kNoStep;
  return e - 1;
}

// Where a walk's stack words are logged for a memo: LOG[0..*N), at most
// CAP of them (*N counts on beyond, so that a walk that read more is
// known not to fit).
struct WordLog
{
  StackCache::Memo::Read *log;
  uint32_t n;
  inline void
  add (uintptr_t addr, uintptr_t value)
  {
    if (n < StackCache::kMemoReads)
      {
        log[n].addr = addr;
        log[n].value = value;
      }
    n++;
  }
};

// Whether the walk from remembered step SLOT on is still what it was:
// every word it and the steps linked after it read holds its value, and
// no link leads to a reused slot.  If so, PCS receives the first NEED of
// their frames (all of them if fewer, when they end where the stack
// does) and *GOT how many that is; steps cut at kEndMax before NEED
// frames do not serve.// Steps found changed are marked for the rest of this walk.  The words
// checked are added to LOG (when they all held).
bool stack_cache_follow (StackCache *c, uint32_t slot, uintptr_t *pcs,
                         uint32_t need, uint32_t *got, WordLog *log);

// A slot for a new step of the current walk, started from state (PC,
// SP, BP), remembered from now on with its words and link still to be
// filled in (stack_cache_link); the previous new step, PREV (kNoStep
// for the first), is linked to it.
uint32_t stack_cache_claim (StackCache *c, uint32_t prev, uintptr_t pc,
                            uintptr_t sp, uintptr_t bp);

// The walk's K new steps, from FIRST on, are followed by remembered step
// JOIN, or end as END says when JOIN is kNoStep.
void stack_cache_link (StackCache *c, uint32_t first, uint32_t k,
                       uint32_t join, uint8_t end);

} // namespace memprof

#endif
