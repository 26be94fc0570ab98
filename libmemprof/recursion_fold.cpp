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
  for (uint32_t i = n; i-- > 0;)
    {
      uintptr_t pc = pcs[i];
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
    }
  if (kept == 0)
    return n;
  for (uint32_t i = kept; i < n; i++)
    pcs[i - kept] = pcs[i];
  return n - kept;
}

} // namespace memprof
