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

inline FrameRule
rule_at (uintptr_t pc)
{
  CacheEntry &e = rule_cache[pc_hash (pc) & ((1 << kCacheBits) - 1)];
  uintptr_t k = __atomic_load_n (&e.pc, __ATOMIC_ACQUIRE);
  uint64_t v = __atomic_load_n (&e.packed, __ATOMIC_ACQUIRE);
  FrameRule r;
  if (LIKELY (k == pc && unpack (pc, v, &r)))
    return r;
  r = compute_frame_rule (pc);
  uint64_t packed = pack (pc, r);
  __atomic_store_n (&e.packed, packed, __ATOMIC_RELEASE);
  __atomic_store_n (&e.pc, pc, __ATOMIC_RELEASE);
  unpack (pc, packed, &r);
  return r;
}

// A caller's frame lies above the callee's and not absurdly far away.
inline bool
plausible (uintptr_t cfa, uintptr_t sp)
{
  return cfa > sp && cfa - sp < ((uintptr_t) 64 << 20) && !(cfa & 7);
}

} // namespace

uint32_t
unwind_stack (uintptr_t frame, uintptr_t *pcs, uint32_t max)
{
  // The entry point's own frame: saved rbp, then the return address.
  uintptr_t bp = ((uintptr_t *) frame)[0];
  uintptr_t pc = ((uintptr_t *) frame)[1];
  uintptr_t sp = frame + 16;
  uint32_t n = 0;
  while (n < max && pc >= 4096)
    {
      // pc - 1 is inside the call instruction: right for calls that end
      // a function (noreturn), and what the profile stores.
      pcs[n++] = pc - 1;
      FrameRule r = rule_at (pc - 1);
      uintptr_t cfa, ra, next_bp;
      if (r.kind == FrameRule::kEnd)
        break;
      if (r.kind == FrameRule::kStep)
        {
          cfa = (r.cfa_on_bp ? bp : sp) + r.cfa_offset;
          if (!plausible (cfa, sp) && !(cfa == sp && !r.cfa_on_bp))
            break;
          ra = *(uintptr_t *) (cfa + r.ra_offset);
          next_bp = r.bp_saved ? *(uintptr_t *) (cfa + r.bp_offset) : bp;
        }
      else
        {
          if (!plausible (bp + 16, sp))
            break;
          cfa = bp + 16;
          ra = ((uintptr_t *) bp)[1];
          next_bp = ((uintptr_t *) bp)[0];
        }
      sp = cfa;
      bp = next_bp;
      pc = ra;
    }
  return n;
}

} // namespace memprof
