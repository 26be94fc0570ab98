// Serializing a ContextTable as an indexed profile
// (include/memprof/indexed_format.h).  The output is canonical: equal
// tables give equal bytes, whatever order they were merged in.
#ifndef MEMPROF_TOOLS_INDEXED_WRITER_H
#define MEMPROF_TOOLS_INDEXED_WRITER_H

#include "context_table.h"

#include <cstdint>
#include <vector>

namespace memprof {

std::vector<uint8_t> write_indexed (const ContextTable &table);

} // namespace memprof

#endif
