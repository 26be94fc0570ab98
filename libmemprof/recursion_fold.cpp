// Recursion folding (recursion_fold.h).

#include "recursion_fold.h"
#include "memprof/raw_format.h"

namespace memprof {

uint32_t
fold_recursion (uintptr_t *pcs, uint32_t n)
{
  constexpr uintptr_t kFolded = MEMPROF_RAW_PC_RECURSION_FOLDED;
  // The kept path is a stack at the end of PCS, outermost last: slots
  // KEPT to N, innermost at KEPT.  Its addresses are distinct.  The
  // filter has one bit per pushed address's hash, left set when a cycle
  // pops it (a stale bit only costs a scan); 256 bits, so that a deep
  // stack without recursion (the common case) rarely takes a false hit
  // and scans the kept frames: with 64 bits a 20-frame stack took about
  // three such scans per walk.
  uint32_t kept = n;
  uint64_t filter[4] = { 0, 0, 0, 0 };
  // The kept path's innermost two addresses (slots KEPT and KEPT + 1,
  // unmarked), in registers: a recursion repeats them (its one or two
  // call sites) and is found there without the filter (through memory,
  // the filter's update and the marking made a chain from frame to
  // frame: rec_tree, every stack 30 recursive frames, had 10% of its run
  // here).  POPPED is an address a cycle just cut off, so not on the
  // path: where two call sites alternate, the one cut is the one pushed
  // next, with no filter lookup.
  uintptr_t last[2] = { 0, 0 };
  uintptr_t popped = 0;
  for (uint32_t i = n; i-- > 0;)
    {
      uintptr_t pc = pcs[i];
      // One branch, taken for each frame that closes a cycle of one or
      // two frames: the two call sites of a recursion alternate at
      // random, which a branch per site would mispredict.
      // (The empty asm keeps GCC from splitting the test in two again.)
      uint32_t at0 = pc == last[0], at1 = pc == last[1];
      uint32_t at = at0 | at1;
      __asm__ ("" : "+r" (at));
      if (at)
        {
          if (!at0)
            {
              // A cycle of two: the innermost kept frame is cut off.
              popped = last[0];
              kept++;
              last[0] = last[1];
              last[1] = kept + 1 < n ? pcs[kept + 1] & ~kFolded : 0;
            }
          pcs[kept] |= kFolded;
          continue;
        }
      uint32_t h = (uint32_t) ((pc * 0x9e3779b97f4a7c15ULL) >> 56);
      uint64_t bit = (uint64_t) 1 << (h & 63);
      uint64_t &word = filter[h >> 6];
      if ((word & bit) && pc != popped)
        {
          uint32_t k = kept;
          while (k < n && (pcs[k] & ~kFolded) != pc)
            k++;
          if (k < n)
            {
              // A longer cycle: the frames inside it are cut off.
              popped = pcs[k - 1] & ~kFolded;
              kept = k;
              pcs[k] |= kFolded;
              last[0] = pc;
              last[1] = k + 1 < n ? pcs[k + 1] & ~kFolded : 0;
              continue;
            }
        }
      word |= bit;
      popped = 0;
      pcs[--kept] = pc;
      last[1] = last[0];
      last[0] = pc;
    }
  if (kept == 0)
    return n;
  for (uint32_t i = kept; i < n; i++)
    pcs[i - kept] = pcs[i];
  return n - kept;
}

} // namespace memprof
