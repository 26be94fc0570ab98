// How a frame is named outside the JSON document: demangled, and an
// unsymbolized frame by its module and address.  Shared by the text
// report and the exports (pprof, DHAT, folded stacks).
#ifndef MEMPROF_TOOLS_FRAME_NAMES_H
#define MEMPROF_TOOLS_FRAME_NAMES_H

#include "context_table.h"
#include "demangle.h"

#include <string>

namespace memprof {

// The frame's function, demangled; "0xADDRESS in MODULE" when the frame
// was not symbolized.
std::string frame_function_name (const Frame &f);

// " [recursion folded]" for a frame a recursion was folded into, and
// " [stack cut here]" for the last frame of a stack cut at stack_depth;
// else "".
std::string frame_marks (const Frame &f);

// The frame's name in the exports (pprof, DHAT, folded stacks):
// frame_function_name, with " [recursion folded]" for a frame a
// recursion was folded into, so a viewer showing function names alone
// still tells it from the same function's unfolded frames.
std::string frame_export_name (const Frame &f);

// One line of the text report's stack: "function (file:line:column)",
// or "function (in MODULE at 0xADDRESS)" without a line,
// with " [inlined]" for an inlined frame and " [recursion folded]" for
// a frame a recursion was folded into.
std::string frame_text (const Frame &f);

} // namespace memprof

#endif
