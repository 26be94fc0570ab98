// Recursion folding: a captured stack's recursive cycles kept once.

#ifndef MEMPROF_RECURSION_FOLD_H
#define MEMPROF_RECURSION_FOLD_H

#include <stdint.h>

namespace memprof {

// Fold the recursion out of PCS[0..N) (frame 0 innermost) in place and
// return the new number of frames.  A return address that occurs twice
// in one stack is a call site active twice: everything between the two
// occurrences is a cycle of the recursion.  Walking from the outermost
// frame in, a frame is kept when its address is not yet kept; otherwise
// the frames kept after that address's are dropped (the cycle is cut
// out) and the kept frame gets MEMPROF_RAW_PC_RECURSION_FOLDED
// (raw_format.h).  So a recursion's contexts are its distinct call
// paths into it, whatever its depth and whichever of its call sites each
// level took, and every kept frame was called by the next one out.
// Cost: one pass with a 256-bit filter, a scan of the kept frames only
// on a filter hit.
uint32_t fold_recursion (uintptr_t *pcs, uint32_t n);

} // namespace memprof

#endif
