// Loading one input file, raw or indexed, into a ContextTable: raw
// profiles are symbolized on the way in.
#ifndef MEMPROF_TOOLS_PROFILE_INPUT_H
#define MEMPROF_TOOLS_PROFILE_INPUT_H

#include "context_table.h"
#include "raw_reader.h"
#include "symbolizer.h"

#include <string>
#include <vector>

namespace memprof {

enum class InputKind { RAW, INDEXED };

// Which kind of profile the bytes hold; throws FormatError when neither.
InputKind detect_kind (const std::vector<uint8_t> &bytes);

// Symbolize every stack of PROF and add its records to TABLE.
void add_raw_profile (const RawProfile &prof, Symbolizer &sym,
                      ContextTable &table,
                      std::vector<ModuleProblem> &problems);

} // namespace memprof

#endif
