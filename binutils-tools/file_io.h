// Reading whole input files.
#ifndef MEMPROF_TOOLS_FILE_IO_H
#define MEMPROF_TOOLS_FILE_IO_H

#include <cstdint>
#include <string>
#include <vector>

namespace memprof {

// The bytes of PATH.  Throws FormatError naming the problem (missing file,
// a directory, unreadable) without the path, which the caller adds.
std::vector<uint8_t> read_whole_file (const std::string &path);

} // namespace memprof

#endif
