// How to step from a frame to its caller at one PC, distilled from the
// DWARF call frame information (.eh_frame) of the code there.

#ifndef MEMPROF_FRAME_RULE_H
#define MEMPROF_FRAME_RULE_H

#include <stdint.h>

namespace memprof {

struct FrameRule
{
  enum Kind : uint8_t
  {
    kUnknown = 0,   // No usable CFI: fall back to the frame pointer.
    kStep = 1,      // CFA = (cfa_on_bp ? rbp : rsp) + cfa_offset.
    kEnd = 2,       // Outermost frame (return address undefined).
  };
  Kind kind;
  bool cfa_on_bp;
  bool bp_saved;       // rbp saved at CFA + bp_offset; else unchanged.
  int32_t cfa_offset;
  int32_t ra_offset;   // Return address at CFA + ra_offset.
  int32_t bp_offset;
};

// The rule at PC (an address inside a call instruction or function
// body), computed from the CFI.  Slow: callers cache the result.
FrameRule compute_frame_rule (uintptr_t pc);

} // namespace memprof

#endif
