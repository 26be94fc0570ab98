// Recursion folding (recursion_fold.h).

#include "recursion_fold.h"
#include "memprof/raw_format.h"

namespace memprof {

uint32_t
fold_recursion (uintptr_t *pcs, uint32_t n)
{
  constexpr uintptr_t kFolded = MEMPROF_RAW_PC_RECURSION_FOLDED;
  // Kept frames gather at the end of PCS, outermost last: slot KEPT and
  // above.  The filter has one bit per kept address's hash.
  uint32_t kept = n;
  uint64_t filter = 0;
  for (uint32_t i = n; i-- > 0;)
    {
      uintptr_t pc = pcs[i];
      uint64_t bit = (uint64_t) 1 << ((pc * 0x9e3779b97f4a7c15ULL) >> 58);
      if (filter & bit)
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
      filter |= bit;
      pcs[--kept] = pc;
    }
  if (kept == 0)
    return n;
  for (uint32_t i = kept; i < n; i++)
    pcs[i - kept] = pcs[i];
  return n - kept;
}

} // namespace memprof
