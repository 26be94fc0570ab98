// Unwinding with cached per-PC frame rules, through the thread's stack
// cache (stack_cache.h) unless stack_cache=0.
//
// A pure frame-pointer walk is fast but wrong through code built without
// frame pointers (glibc, libstdc++): a function that never set up rbp
// leaves its caller's rbp in place, and the walk silently skips frames.
// So each step asks what the CFI says at that PC.  Where the rule is
// "CFA = rbp + 16, rbp saved at CFA - 16" this is exactly a frame-pointer
// step; elsewhere it steps by the CFI rule.  Rules are computed once per
// PC and kept in a lock-free direct-mapped cache, so the common path is
// one cache probe and two loads per frame.  Only PCs without CFI fall
// back to the plain frame-pointer step, guarded by plausibility checks.

#include "unwind.h"
#include "flags.h"
#include "frame_rule.h"
#include "internal.h"
#include "per_thread.h"
#include "stack_cache.h"

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
// fit are stored as kUnknown.
uint64_t
pack (uintptr_t pc, const FrameRule &r)
{
  uint64_t tag = (pc_hash (pc) >> 30) & 0xffff;
  uint64_t v = tag << 48;
  bool fits = r.cfa_offset >= 0 && r.cfa_offset < (1 << 24)
              && r.ra_offset % 8 == 0 && r.bp_offset % 8 == 0
              && r.ra_offset / 8 >= -128 && r.ra_offset / 8 < 128
              && r.bp_offset / 8 >= -128 && r.bp_offset / 8 < 128;
  uint64_t kind = fits ? r.kind : FrameRule::kUnknown;
  v |= kind << 46;
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

inline bool
unpack (uintptr_t pc, uint64_t v, FrameRule *r)
{
  if ((v >> 48) != ((pc_hash (pc) >> 30) & 0xffff))
    return false;
  r->kind = (FrameRule::Kind) ((v >> 46) & 3);
  r->cfa_on_bp = (v >> 45) & 1;
  r->bp_saved = (v >> 44) & 1;
  r->cfa_offset = (int32_t) ((v >> 16) & 0xffffff);
  r->ra_offset = (int8_t) (uint8_t) (v >> 8) * 8;
  r->bp_offset = (int8_t) (uint8_t) v * 8;
  return true;
}

// The packed rule of PC from the shared cache, computing it on a miss.
uint64_t
shared_rule (uintptr_t pc)
{
  CacheEntry &e = rule_cache[pc_hash (pc) & ((1 << kCacheBits) - 1)];
  uintptr_t k = __atomic_load_n (&e.pc, __ATOMIC_ACQUIRE);
  uint64_t v = __atomic_load_n (&e.packed, __ATOMIC_ACQUIRE);
  FrameRule r;
  if (LIKELY (k == pc && unpack (pc, v, &r)))
    return v;
  uint64_t packed = pack (pc, compute_frame_rule (pc));
  __atomic_store_n (&e.packed, packed, __ATOMIC_RELEASE);
  __atomic_store_n (&e.pc, pc, __ATOMIC_RELEASE);
  return packed;
}

// The rule at PC: first from the thread's own small cache (L1-resident,
// no tag to check: only this thread writes it), else the shared one.
inline FrameRule
rule_at (uintptr_t pc, PerThread *pt)
{
  uint64_t packed;
  if (LIKELY (pt != nullptr))
    {
      PerThread::RuleSlot &slot
        = pt->rules[(pc * 0x9e3779b97f4a7c15ULL) >> 56];
      static_assert (PerThread::kRuleSlots == 256, "slot index is 8 bits");
      if (LIKELY (slot.pc == pc))
        packed = slot.packed;
      else
        {
          packed = shared_rule (pc);
          slot.pc = pc;
          slot.packed = packed;
        }
    }
  else
    packed = shared_rule (pc);
  FrameRule r = { FrameRule::kUnknown, false, false, 0, 0, 0 };
  unpack (pc, packed, &r);
  return r;
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

// Step S out to the caller's state by R, the rule at S.pc - 1.  LOG
// (may be null) gets the words read: their offsets from S.sp and values
// in addr_off and value, their number added to bits.  False when the
// walk ends here.
MEMPROF_ALWAYS_INLINE bool
step_out (WalkState &s, const FrameRule &r, StackCache::Step *log)
{
  uintptr_t cfa, ra_addr, bp_addr = 0;
  if (r.kind == FrameRule::kEnd)
    return false;
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
  if (log)
    {
      log->addr_off[0] = (int32_t) (ra_addr - s.sp);
      log->value[0] = ra;
      log->addr_off[1] = (int32_t) (bp_addr - s.sp);
      log->value[1] = next_bp;
      log->bits |= bp_addr ? 2 : 1;
    }
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

// Every frame from S on stepped by its rule.
uint32_t
walk_plain (WalkState s, uintptr_t *pcs, uint32_t max, PerThread *pt)
{
  uint32_t n = 0;
  while (n < max && s.pc >= 4096)
    {
      FrameRule r = rule_at (s.pc - 1, pt);
      if (records_frame (s.pc))
        pcs[n++] = s.pc - 1;
      if (!step_out (s, r, nullptr))
        break;
    }
  return n;
}

// The replay memo for walks from FRAME whose first return address is
// PC: the way of its set that holds them, else the way not used last,
// taken over.  (One function allocating at many depths, as a chain of
// callers each calling it, has a memo per depth.)
inline StackCache::Memo *
memo_for (StackCache &c, uintptr_t pc, uintptr_t frame)
{
  uint64_t h = pc ^ (pc >> 29) ^ (frame * 0x9e3779b97f4a7c15ULL);
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  uintptr_t key = pc ^ frame << 16;
  uint32_t set = (uint32_t) h & (StackCache::kMemoSets - 1);
  uintptr_t *keys = &c.memo_key[2 * set];
  uint32_t way;
  // (Keys of two walks may coincide: a memo is checked before use.)
  if (keys[0] == key)
    way = 0;
  else if (keys[1] == key)
    way = 1;
  else
    {
      way = c.memo_recent[set] ^ 1;
      keys[way] = key;
      c.memos[2 * set + way].reads = StackCache::kNoMemo;
    }
  c.memo_recent[set] = (uint8_t) way;
  return &c.memos[2 * set + way];
}

// A repeated walk: when the memo's last walk started at FRAME with the
// same limit and every stack word it read still holds the value it read,
// this walk would be that one, frame for frame.  Reads in the logged
// order, so every address read is one the full walk would read.
inline bool
replay_matches (const StackCache::Memo &m, uintptr_t frame, uint32_t max)
{
  if (m.frame != frame || m.max != max || m.reads == StackCache::kNoMemo)
    return false;
  for (uint32_t i = 0; i < m.reads; i++)
    if (*(const uintptr_t *) m.read[i].addr != m.read[i].value)
      return false;
  return true;
}

// The walk through the thread's stack cache (stack_cache.h): steps are
// made, and remembered, until one reaches a state a remembered step
// started from whose walk is still what it was; its frames complete the
// stack.
uint32_t
walk_cached (uintptr_t frame, uintptr_t *pcs, uint32_t max, PerThread *pt,
             uint32_t **id_slot)
{
  StackCache &c = pt->stack_cache;
  if (c.max != max)
    {
      stack_cache_clear (&c);
      c.max = max;
    }
  WalkState s = entry_state (frame);
  StackCache::Memo *m = memo_for (c, s.pc, frame);
  if (replay_matches (*m, frame, max))
    {
      // The id may have gone to the walk's first step only.
      if (!m->id && m->slot != kNoStep
          && c.steps[m->slot].stamp == m->slot_stamp)
        m->id = c.id[m->slot];
      // Without an id the caller needs the frames: walked below.
      if (m->id)
        {
          *id_slot = &m->id;
          stack_cache_account (&c, 0, m->n);
          return m->n;
        }
    }
  if (++c.walk == 0)
    c.walk = 1;   // 0 is no walk's: a fresh step's failed_walk.
  WordLog log = { m->read, 0 };
  log.add (frame, s.bp);
  log.add (frame + 8, s.pc);
  uint32_t n = 0, k = 0, join = kNoStep, got = 0;
  uint32_t first = kNoStep, prev = kNoStep;
  // After a remembered step fails, the next few states are not looked
  // up, at gaps that double: where call chains of one depth differ all
  // the way out (a recursion taking other branches), a lookup at every
  // step would cost more than it saves.
  uint32_t next_try = 0, gap = 1;
  while (n < max && s.pc >= 4096)
    {
      if (k >= next_try)
        {
          uint32_t known = stack_cache_find (&c, s.pc, s.sp, s.bp);
          if (known != kNoStep)
            {
              if (stack_cache_follow (&c, known, pcs + n, max - n, &got,
                                      &log))
                {
                  join = known;
                  break;
                }
              next_try = k + gap;
              gap *= 2;
            }
        }
      if (UNLIKELY (k == StackCache::kMaxWalk))
        {
          // Deeper than a walk the cache remembers: the rest uncached.
          stack_cache_link (&c, first, k, kNoStep, StackCache::kEndDead);
          m->reads = StackCache::kNoMemo;
          *id_slot = nullptr;
          return n + walk_plain (s, pcs + n, max - n, pt);
        }
      prev = stack_cache_claim (&c, prev, s.pc, s.sp, s.bp);
      if (k++ == 0)
        first = prev;
      StackCache::Step &f = c.steps[prev];
      FrameRule r = rule_at (s.pc - 1, pt);
      if (records_frame (s.pc))
        {
          f.bits = StackCache::kRecords;
          pcs[n++] = s.pc - 1;
        }
      if (!step_out (s, r, &f))
        break;
      for (uint32_t i = 0; i < (f.bits & StackCache::kReads); i++)
        log.add (f.sp + f.addr_off[i], f.value[i]);
    }
  // The walk's first step is where the id of this stack goes.
  if (k)
    stack_cache_link (&c, first, k, join,
                      n == max ? StackCache::kEndMax : StackCache::kEndStack);
  else
    first = join;
  m->frame = frame;
  m->max = max;
  m->n = n + got;
  m->reads = log.n <= StackCache::kMemoReads ? log.n : StackCache::kNoMemo;
  m->slot = first;
  m->slot_stamp = first != kNoStep ? c.steps[first].stamp : 0;
  m->id = first != kNoStep ? c.id[first] : 0;
  *id_slot = first != kNoStep ? &c.id[first] : &m->id;
  stack_cache_account (&c, k, n + got);
  return n + got;
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
unwind_stack (uintptr_t frame, uintptr_t *pcs, uint32_t max, PerThread *pt,
              uint32_t **id_slot)
{
  if (pt && flags.stack_cache && !pt->stack_cache.busy
      && !(pt->stack_cache.plain_left && pt->stack_cache.plain_left--))
    {
      pt->stack_cache.busy = true;
      uint32_t n = walk_cached (frame, pcs, max, pt, id_slot);
      pt->stack_cache.busy = false;
      return n;
    }
  if (id_slot)
    *id_slot = nullptr;
  return walk_plain (entry_state (frame), pcs, max, pt);
}

} // namespace memprof
