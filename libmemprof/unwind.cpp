// Unwinding with cached per-PC frame rules.
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
#include "frame_rule.h"
#include "internal.h"
#include "per_thread.h"

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

// The memo for stacks whose first return address is PC: the way of its
// set that holds PC, else the way not used last, taken over for PC.
// (The address is mixed first: return addresses close together must not
// share a set more often than chance.)
inline PerThread::StackMemo *
memo_for (PerThread *pt, uintptr_t pc)
{
  uint64_t h = pc ^ (pc >> 29);
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  uint32_t set = (uint32_t) h & (PerThread::kMemoSets - 1);
  uintptr_t *keys = &pt->memo_key[2 * set];
  uint32_t way;
  if (keys[0] == pc)
    way = 0;
  else if (keys[1] == pc)
    way = 1;
  else
    {
      way = pt->memo_recent[set] ^ 1;
      keys[way] = pc;
    }
  pt->memo_recent[set] = (uint8_t) way;
  return &pt->memos[2 * set + way];
}

// A repeated walk: when the memo's last walk started at FRAME with the
// same limit and every stack word it read still holds the value it read,
// this walk would be that one, frame for frame.  Reads in the logged
// order, so every address read is one the full walk would read.
inline bool
replay_matches (const PerThread::StackMemo &m, uintptr_t frame, uint32_t max)
{
  if (m.frame != frame || m.max != max || m.id == 0
      || m.reads == PerThread::kNoMemo)
    return false;
  for (uint32_t i = 0; i < m.reads; i++)
    if (*(const uintptr_t *) m.read[i].addr != m.read[i].value)
      return false;
  return true;
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
  // The entry point's own frame: saved rbp, then the return address.
  uintptr_t pc = ((uintptr_t *) frame)[1];
  PerThread::StackMemo *m = nullptr;
  if (pt)
    {
      m = memo_for (pt, pc);
      if (replay_matches (*m, frame, max))
        {
          *id_slot = &m->id;
          return m->n;
        }
    }
  // Log of the words read, for replay_matches.
  uint32_t reads = 0;
  auto load = [&] (uintptr_t addr) {
    uintptr_t v = *(const uintptr_t *) addr;
    if (m && reads < PerThread::kMemoReads)
      {
        m->read[reads].addr = addr;
        m->read[reads].value = v;
      }
    reads++;
    return v;
  };
  uintptr_t bp = load (frame);
  pc = load (frame + 8);
  uintptr_t sp = frame + 16;
  uint32_t n = 0;
  bool same = m != nullptr;
  while (n < max && pc >= 4096)
    {
      FrameRule r;
      if (UNLIKELY (pc_in_runtime (pc)))
        // Our own frame above a foreign one that called back into the
        // allocator (e.g. operator new -> __cxa_allocate_exception ->
        // malloc): stepped through, never recorded.
        r = rule_at (pc - 1, pt);
      else
        {
          // pc - 1 is inside the call instruction: right for calls that
          // end a function (noreturn), and what the profile stores.
          if (LIKELY (same) && n < PerThread::kMemoFrames && m->ra[n] == pc)
            r = m->rule[n];
          else
            {
              r = rule_at (pc - 1, pt);
              same = false;
              if (m && n < PerThread::kMemoFrames)
                {
                  m->ra[n] = pc;
                  m->rule[n] = r;
                }
            }
          pcs[n++] = pc - 1;
        }
      uintptr_t cfa, ra, next_bp;
      if (r.kind == FrameRule::kEnd)
        break;
      if (r.kind == FrameRule::kStep)
        {
          cfa = (r.cfa_on_bp ? bp : sp) + r.cfa_offset;
          if (!plausible (cfa, sp) && !(cfa == sp && !r.cfa_on_bp))
            break;
          ra = load (cfa + r.ra_offset);
          next_bp = r.bp_saved ? load (cfa + r.bp_offset) : bp;
        }
      else
        {
          if (!plausible (bp + 16, sp))
            break;
          cfa = bp + 16;
          ra = load (bp + 8);
          next_bp = load (bp);
        }
      sp = cfa;
      bp = next_bp;
      pc = ra;
    }
  if (m)
    {
      // Every frame matched the memo and there are as many: these are
      // exactly its frames, and its id stands.
      if (!same || m->n != n)
        {
          m->n = n <= PerThread::kMemoFrames ? n : PerThread::kNoMemo;
          m->id = 0;
        }
      m->frame = frame;
      m->max = max;
      m->reads = reads <= PerThread::kMemoReads && m->n != PerThread::kNoMemo
                   ? reads
                   : PerThread::kNoMemo;
      *id_slot = &m->id;
    }
  return n;
}

} // namespace memprof
