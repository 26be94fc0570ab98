// Reader of indexed profiles (include/memprof/indexed_format.h).  Every
// offset, id and count is checked against its section before use; a
// damaged file raises FormatError saying what is wrong.
#ifndef MEMPROF_TOOLS_INDEXED_READER_H
#define MEMPROF_TOOLS_INDEXED_READER_H

#include "context_table.h"

#include <cstdint>
#include <map>
#include <string>

namespace memprof {

struct IndexedInfo
{
  uint64_t version = 0;
  std::map<uint64_t, uint64_t> summary;   // Tag -> value.
  // The FUNCTION_LINES section was there: frames carry function_line.
  bool has_function_lines = false;
};

bool looks_like_indexed (const uint8_t *data, size_t size);

// Read the whole profile into TABLE (merged in as a later input).
IndexedInfo read_indexed (const uint8_t *data, size_t size,
                          ContextTable &table);

// Read only FUNCTION's records, found through the FUNCTIONS hash table
// (with ALLOCATORS, function_filter.h, every group is read).
IndexedInfo read_indexed_function (const uint8_t *data, size_t size,
                                   const std::string &function,
                                   const std::vector<std::string> &allocators,
                                   ContextTable &table);

} // namespace memprof

#endif
