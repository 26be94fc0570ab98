// Recursion folding (recursion_fold.h).

#include "recursion_fold.h"
#include "memprof/raw_format.h"

namespace memprof {

uint32_t
fold_recursion (uintptr_t *pcs, uint32_t n)
{
  constexpr uintptr_t kFolded = MEMPROF_RAW_PC_RECURSION_FOLDED;
  // Kept frames gather at the end of PCS, outermost last: slot KEPT and
  // above.  The filter has one bit per kept address's hash; 256 bits, so
  // that a deep stack without recursion (the common case) rarely takes a
  // false hit and scans the kept frames: with 64 bits a 20-frame stack
  // took about three such scans per walk.
  uint32_t kept = n;
  uint64_t filter[4] = { 0, 0, 0, 0 };
  // The last two frames kept (slots KEPT and KEPT + 1), in registers: a
  // recursion repeats them (its one or two call sites), and is found
  // there without the filter, and marked by one store, not one per frame
  // (through memory, the filter's update and the marking made a chain
  // from frame to frame: rec_tree, every stack 30 recursive frames, had
  // 10% of its run here).  Kept addresses are distinct, so this finds the
  // frame the scan below would.
  uintptr_t last[2] = { 0, 0 };
  for (uint32_t i = n; i-- > 0;)
    {
      uintptr_t pc = pcs[i];
      // One branch, taken for each recursive frame: the two call sites
      // of a recursion alternate at random, which a branch per site
      // would mispredict.
      // (The empty asm keeps GCC from splitting the test in two again.)
      uint32_t at0 = pc == last[0], at1 = pc == last[1];
      uint32_t at = at0 | at1;
      __asm__ ("" : "+r" (at));
      if (at)
        {
          uintptr_t &kept_pc = pcs[kept + !at0];
          if (!(kept_pc & kFolded))
            kept_pc |= kFolded;
          continue;
        }
      uint32_t h = (uint32_t) ((pc * 0x9e3779b97f4a7c15ULL) >> 56);
      uint64_t bit = (uint64_t) 1 << (h & 63);
      uint64_t &word = filter[h >> 6];
      if (word & bit)
        {
          uint32_t k = kept;
          while (k < n && (pcs[k] & ~kFolded) != pc)
            k++;
          if (k < n)
            {
              pcs[k] |= kFolded;
              continue;
            }
        }
      word |= bit;
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
