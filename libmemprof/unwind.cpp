// Unwinding with cached per-PC frame rules, through the thread's stack
// cache (stack_cache.h) unless stack_cache=0.
//
// A pure frame-pointer walk is fast but wrong through code built without
// frame pointers (glibc, libstdc++): a function that never set up rbp
// leaves its caller's rbp in place, and the walk silently skips frames.
// So each step asks what the CFI says at that PC.  Where the rule is
// "CFA = rbp + 16, rbp saved at CFA - 16" this is exactly a frame-pointer
// step; elsewhere it steps by the CFI rule.  Rules are computed once per
// PC and kept in a lock-free direct-mapped cache, so a step is one cache
// probe and two loads.  Only PCs without CFI fall back to the plain
// frame-pointer step, guarded by plausibility checks.
//
// An allocation needs the depot id of its folded stack, not the frames:
// through the stack cache a repeated walk gives it by checking the words
// the walk read, without a rule, a fold or a depot lookup.

#include "unwind.h"
#include "flags.h"
#include "frame_rule.h"
#include "internal.h"
#include "per_thread.h"
#include "recursion_fold.h"
#include "stack_cache.h"
#include "stack_depot.h"

// Markers at the two ends of the runtime's code (text_begin.cpp is the
// first object linked, text_end.cpp the last; see Makefile.am).
extern "C" void __memprof_text_begin ();
extern "C" void __memprof_text_end ();

namespace memprof {

namespace {

// One entry: the PC and its rule packed with a tag of that PC, so a
// reader that sees a torn update (PC of one writer, rule of another)
// notices the mismatch and recomputes.
struct CacheEntry
{
  uintptr_t pc;
  uint64_t packed;
};

constexpr int kCacheBits = 14;
CacheEntry rule_cache[1 << kCacheBits];

inline uint64_t
pc_hash (uintptr_t pc)
{
  return (pc * 0x9e3779b97f4a7c15ULL) >> 20;
}

// Layout: tag 16 | kind 2 | cfa_on_bp 1 | bp_saved 1 | cfa_offset 24 |
// ra_offset/8 (signed 8) | bp_offset/8 (signed 8).  Rules that do not
// fit are stored as kUnknown.  The rule's bits, without the tag:
constexpr uint64_t
pack_rule (const FrameRule &r)
{
  bool fits = r.cfa_offset >= 0 && r.cfa_offset < (1 << 24)
              && r.ra_offset % 8 == 0 && r.bp_offset % 8 == 0
              && r.ra_offset / 8 >= -128 && r.ra_offset / 8 < 128
              && r.bp_offset / 8 >= -128 && r.bp_offset / 8 < 128;
  uint64_t kind = fits ? r.kind : FrameRule::kUnknown;
  uint64_t v = kind << 46;
  if (kind == FrameRule::kStep)
    {
      v |= (uint64_t) r.cfa_on_bp << 45;
      v |= (uint64_t) r.bp_saved << 44;
      v |= (uint64_t) r.cfa_offset << 16;
      v |= (uint64_t) (uint8_t) (int8_t) (r.ra_offset / 8) << 8;
      v |= (uint64_t) (uint8_t) (int8_t) (r.bp_offset / 8);
    }
  return v;
}

inline uint64_t
tag_of (uintptr_t pc)
{
  return (pc_hash (pc) >> 30) & 0xffff;
}

uint64_t
pack (uintptr_t pc, const FrameRule &r)
{
  return tag_of (pc) << 48 | pack_rule (r);
}

constexpr uint64_t kRuleBits = ((uint64_t) 1 << 48) - 1;

// The rule of a frame with a frame pointer: CFA = rbp + 16, the return
// address below it, rbp saved below that.
constexpr uint64_t kFramePointerRule
  = pack_rule ({ FrameRule::kStep, true, true, 16, -8, -16 });

// Whether V is PC's packed rule (not another PC's, left by a torn
// update).
inline bool
tag_matches (uintptr_t pc, uint64_t v)
{
  return (v >> 48) == tag_of (pc);
}

inline void
unpack_rule (uint64_t v, FrameRule *r)
{
  r->kind = (FrameRule::Kind) ((v >> 46) & 3);
  r->cfa_on_bp = (v >> 45) & 1;
  r->bp_saved = (v >> 44) & 1;
  r->cfa_offset = (int32_t) ((v >> 16) & 0xffffff);
  r->ra_offset = (int8_t) (uint8_t) (v >> 8) * 8;
  r->bp_offset = (int8_t) (uint8_t) v * 8;
}

// The packed rule of PC from the shared cache, computing it on a miss.
uint64_t
shared_rule (uintptr_t pc)
{
  CacheEntry &e = rule_cache[pc_hash (pc) & ((1 << kCacheBits) - 1)];
  uintptr_t k = __atomic_load_n (&e.pc, __ATOMIC_ACQUIRE);
  uint64_t v = __atomic_load_n (&e.packed, __ATOMIC_ACQUIRE);
  if (LIKELY (k == pc && tag_matches (pc, v)))
    return v;
  uint64_t packed = pack (pc, compute_frame_rule (pc));
  __atomic_store_n (&e.packed, packed, __ATOMIC_RELEASE);
  __atomic_store_n (&e.pc, pc, __ATOMIC_RELEASE);
  return packed;
}

// The packed rule at PC from the shared cache, kept in slot SLOT of the
// thread's cache (null: the thread has none).
MEMPROF_NOINLINE uint64_t
packed_rule_miss (uintptr_t pc, PerThread::RuleSlot *slot)
{
  uint64_t packed = shared_rule (pc);
  if (slot)
    {
      slot->pc = pc;
      slot->packed = packed;
    }
  return packed;
}

// The packed rule at PC: first from the thread's own small cache
// (L1-resident, written by this thread only; the tag is still checked,
// since a signal handler may look between the two stores of an update),
// else the shared one.
MEMPROF_ALWAYS_INLINE uint64_t
packed_rule_at (uintptr_t pc, PerThread *pt)
{
  PerThread::RuleSlot *slot = nullptr;
  if (LIKELY (pt != nullptr))
    {
      slot = &pt->rules[(pc * 0x9e3779b97f4a7c15ULL) >> 56];
      static_assert (PerThread::kRuleSlots == 256, "slot index is 8 bits");
      uint64_t v = slot->packed;
      if (LIKELY (slot->pc == pc && tag_matches (pc, v)))
        return v;
    }
  return packed_rule_miss (pc, slot);
}

// A caller's frame lies above the callee's and not absurdly far away.
inline bool
plausible (uintptr_t cfa, uintptr_t sp)
{
  return cfa > sp && cfa - sp < ((uintptr_t) 64 << 20) && !(cfa & 7);
}

// The state a walk step starts from: the return address being looked
// at, the stack pointer and the frame pointer in that frame.
struct WalkState
{
  uintptr_t pc, sp, bp;
};

inline WalkState
entry_state (uintptr_t frame)
{
  // The entry point's own frame: saved rbp, then the return address.
  return { ((const uintptr_t *) frame)[1], frame + 16,
           ((const uintptr_t *) frame)[0] };
}

// Where the words a walk reads go when the walk is to be kept: a pair
// a step, into RING (the walk's place in the ring), as addresses from
// its start frame FRAME.  FITS turns false when one does not fit (too
// many steps, too far away): the walk is not kept.
//
// A saved rbp a step restores matters only if a later step uses rbp
// (a CFA on rbp, or the frame-pointer fallback) before another step
// restores it again.  Code without frame pointers (glibc, libstdc++)
// saves rbp as an ordinary register holding data, a new value each
// call; so the word stays PENDING until a step uses rbp, and one that
// never is used is dropped (its pair holds the return address twice).
struct PairLog
{
  StackCache::Pair *ring;
  uintptr_t frame;
  uint32_t n;
  bool fits;
  StackCache::Pair *pending;   // The pair with an unused rbp, or null.

  MEMPROF_ALWAYS_INLINE void
  add (uintptr_t addr0, uintptr_t value0, uintptr_t addr1, uintptr_t value1)
  {
    intptr_t off0 = (intptr_t) (addr0 - frame);
    intptr_t off1 = (intptr_t) (addr1 - frame);
    if (LIKELY (n < StackCache::kMaxPairs && off0 == (int32_t) off0
                && off1 == (int32_t) off1))
      {
        StackCache::Pair &p = ring[n++];
        p.offset[0] = (int32_t) off0;
        p.offset[1] = (int32_t) off1;
        p.value[0] = value0;
        p.value[1] = value1;
      }
    else
      fits = false;
  }

  // A step restoring rbp: the return address at RA_ADDR, rbp at BP_ADDR
  // (0: rbp unchanged).
  MEMPROF_ALWAYS_INLINE void
  step (uintptr_t ra_addr, uintptr_t ra, uintptr_t bp_addr, uintptr_t bp)
  {
    if (!bp_addr)
      {
        add (ra_addr, ra, ra_addr, ra);
        return;
      }
    drop_pending ();
    add (ra_addr, ra, bp_addr, bp);
    pending = fits ? &ring[n - 1] : nullptr;
  }

  // rbp is used: the word it was read from matters.
  MEMPROF_ALWAYS_INLINE void
  use_bp ()
  {
    pending = nullptr;
  }

  // rbp is restored again or the walk ends: the word it was read from
  // did not matter.
  MEMPROF_ALWAYS_INLINE void
  drop_pending ()
  {
    if (pending)
      {
        pending->offset[1] = pending->offset[0];
        pending->value[1] = pending->value[0];
        pending = nullptr;
      }
  }
};

// Step S out to the caller's state through a frame with a frame
// pointer (kFramePointerRule), logging the words read with LOG.  False
// when the frame is implausible.  Its addresses come from rbp alone, so
// the next step's loads do not wait for the rule lookup, which only
// decides a predicted branch: with the addresses computed from the
// rule's fields, the lookup was on a deep walk's chain of dependent
// loads (rec_tree: 13% fewer of the runtime's samples).
template <bool Log>
MEMPROF_ALWAYS_INLINE bool
frame_pointer_step (WalkState &s, PairLog *log)
{
  if (!plausible (s.bp + 16, s.sp))
    return false;
  uintptr_t ra = ((const uintptr_t *) s.bp)[1];
  uintptr_t next_bp = ((const uintptr_t *) s.bp)[0];
  if (Log)
    {
      log->use_bp ();
      log->step (s.bp + 8, ra, s.bp, next_bp);
    }
  s.sp = s.bp + 16;
  s.pc = ra;
  s.bp = next_bp;
  return true;
}

// Step S out to the caller's state by R, the rule at S.pc - 1; with LOG,
// log the words read.  False when the walk ends here.
template <bool Log>
MEMPROF_ALWAYS_INLINE bool
step_out (WalkState &s, const FrameRule &r, PairLog *log)
{
  uintptr_t cfa, ra_addr, bp_addr = 0;
  if (r.kind == FrameRule::kEnd)
    return false;
  if (Log && (r.kind != FrameRule::kStep || r.cfa_on_bp))
    log->use_bp ();
  if (r.kind == FrameRule::kStep)
    {
      cfa = (r.cfa_on_bp ? s.bp : s.sp) + r.cfa_offset;
      if (!plausible (cfa, s.sp) && !(cfa == s.sp && !r.cfa_on_bp))
        return false;
      ra_addr = cfa + r.ra_offset;
      if (r.bp_saved)
        bp_addr = cfa + r.bp_offset;
    }
  else
    {
      if (!plausible (s.bp + 16, s.sp))
        return false;
      cfa = s.bp + 16;
      ra_addr = s.bp + 8;
      bp_addr = s.bp;
    }
  uintptr_t ra = *(const uintptr_t *) ra_addr;
  uintptr_t next_bp = bp_addr ? *(const uintptr_t *) bp_addr : s.bp;
  if (Log)
    log->step (ra_addr, ra, bp_addr, next_bp);
  s.sp = cfa;
  s.pc = ra;
  s.bp = next_bp;
  return true;
}

// One step's frame: PC - 1 is inside the call instruction (right for
// calls that end a function, noreturn) and is what the profile stores.
// Our own frame above a foreign one that called back into the allocator
// (e.g. operator new -> __cxa_allocate_exception -> malloc) is stepped
// through, never recorded.
inline bool
records_frame (uintptr_t pc)
{
  return !UNLIKELY (pc_in_runtime (pc));
}

// Every frame from S on stepped by its rule, until MAX are recorded (the
// last one's caller is not looked at) or the stack ends.
template <bool Log>
MEMPROF_ALWAYS_INLINE uint32_t
walk (WalkState s, uintptr_t *pcs, uint32_t max, PerThread *pt,
      PairLog *log)
{
  uint32_t n = 0;
  while (s.pc >= 4096)
    {
      if (records_frame (s.pc))
        {
          pcs[n++] = s.pc - 1;
          if (n == max)
            break;
        }
      uint64_t v = packed_rule_at (s.pc - 1, pt);
      if (LIKELY ((v & kRuleBits) == kFramePointerRule))
        {
          if (!frame_pointer_step<Log> (s, log))
            break;
          continue;
        }
      FrameRule r;
      unpack_rule (v, &r);
      if (!step_out<Log> (s, r, log))
        break;
    }
  return n;
}

// Frames a stack may have (stack_depth's largest value).
constexpr uint32_t kMaxDepth = 256;

// Frames a walk reads for a stack of MAX: with folding, twice as many
// (at most kMaxDepth), so that a recursion within them is folded before
// the stack is cut to MAX and its outer frames are kept.  A stack that
// has no recursion and is deeper than MAX costs up to twice the walk.
inline uint32_t
walk_window (uint32_t max)
{
  if (!flags.fold_recursion)
    return max;
  return max < kMaxDepth / 2 ? 2 * max : kMaxDepth;
}

// The depot id of the walked frames PCS[0..N), folded (which changes
// PCS).  The walk went up to walk_window (MAX) + 1 frames: when it found
// that many, or the folded stack has more than MAX, the stack is cut to
// MAX and its last frame says so.
inline uint32_t
id_of_frames (uintptr_t *pcs, uint32_t n, uint32_t max, PerThread *pt)
{
  uint32_t window = walk_window (max);
  bool cut = n > window;
  if (cut)
    n = window;
  if (flags.fold_recursion)
    n = fold_recursion (pcs, n);
  if (n > max)
    {
      n = max;
      cut = true;
    }
  if (UNLIKELY (cut))
    pcs[n - 1] |= MEMPROF_RAW_PC_STACK_CUT;
  return depot_put (pcs, n, pt);
}

// The id of the stack from FRAME, walked without the stack cache.
MEMPROF_NOINLINE uint32_t
plain_id (uintptr_t frame, uint32_t max, PerThread *pt)
{
  uintptr_t pcs[kMaxDepth + 1];
  uint32_t n = walk<false> (entry_state (frame), pcs, walk_window (max) + 1,
                            pt, nullptr);
  return id_of_frames (pcs, n, max, pt);
}

// The id of the stack from FRAME, walked and kept in SET (the walks of
// its key) in place of the walk stack_cache_victim chooses.
MEMPROF_NOINLINE uint32_t
walk_and_keep (uintptr_t frame, uint32_t max, PerThread *pt,
               StackCache::Walk *set)
{
  StackCache &c = pt->stack_cache;
  StackCache::Walk &w = stack_cache_victim (&c, set);
  w.frame = 0;
  uint32_t start = stack_cache_start (&c);
  WalkState s = entry_state (frame);
  PairLog log = { &c.ring[start % StackCache::kRing], frame, 0, true,
                  nullptr };
  log.step (frame + 8, s.pc, frame, s.bp);
  uintptr_t pcs[kMaxDepth + 1];
  uint32_t n = walk<true> (s, pcs, walk_window (max) + 1, pt, &log);
  log.drop_pending ();
  // The pairs written over are no other walk's from now on.
  c.head = start + log.n;
  uint32_t id = id_of_frames (pcs, n, max, pt);
  if (log.fits && id)
    {
      w.frame = frame;
      w.pc = s.pc;
      w.start = start;
      w.pairs = log.n;
      w.id = id;
      w.used = ++c.tick;
    }
  return id;
}

// The id of the stack from FRAME through the thread's stack cache: a
// kept walk from FRAME whose words all hold gives it, else the walk is
// made and kept.
MEMPROF_ALWAYS_INLINE uint32_t
cached_id (uintptr_t frame, uint32_t max, PerThread *pt)
{
  StackCache &c = pt->stack_cache;
  if (UNLIKELY (c.max != max))
    {
      stack_cache_clear (&c);
      c.max = max;
    }
  uintptr_t pc = ((const uintptr_t *) frame)[1];
  StackCache::Walk *set = stack_cache_set (&c, pc, frame);
  bool checked = false;
  for (uint32_t way = 0; way < StackCache::kWays; way++)
    {
      StackCache::Walk &w = set[way];
      if (w.frame == frame && w.pc == pc && stack_cache_intact (&c, w))
        {
          if (stack_cache_holds (&c, w, frame))
            {
              w.used = ++c.tick;
              stack_cache_account (&c, false);
              return w.id;
            }
          checked = true;
        }
    }
  stack_cache_account (&c, checked);
  return walk_and_keep (frame, max, pt, set);
}

} // namespace

void
unwind_forget_rules ()
{
  for (CacheEntry &e : rule_cache)
    __atomic_store_n (&e.pc, 0, __ATOMIC_RELEASE);
}

bool
pc_in_runtime (uintptr_t pc)
{
  return pc - (uintptr_t) __memprof_text_begin
         < (uintptr_t) __memprof_text_end - (uintptr_t) __memprof_text_begin;
}


uint32_t
unwind_stack (uintptr_t frame, uintptr_t *pcs, uint32_t max, PerThread *pt)
{
  return walk<false> (entry_state (frame), pcs, max, pt, nullptr);
}

uint32_t
stack_context_id (uintptr_t frame, PerThread *pt)
{
  uint32_t max = (uint32_t) flags.stack_depth;
  if (LIKELY (pt != nullptr) && flags.stack_cache)
    {
      StackCache &c = pt->stack_cache;
      if (!c.busy && !(c.plain_left && c.plain_left--))
        {
          // A signal handler allocating meanwhile sees BUSY and leaves
          // the cache alone.
          c.busy = true;
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          uint32_t id = cached_id (frame, max, pt);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          c.busy = false;
          return id;
        }
    }
  return plain_id (frame, max, pt);
}

} // namespace memprof
