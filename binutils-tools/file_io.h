// Reading whole input files and writing output files safely.
#ifndef MEMPROF_TOOLS_FILE_IO_H
#define MEMPROF_TOOLS_FILE_IO_H

#include <cstdint>
#include <string>
#include <vector>

namespace memprof {

// The bytes of PATH.  Throws FormatError naming the problem (missing file,
// a directory, unreadable) without the path, which the caller adds.
std::vector<uint8_t> read_whole_file (const std::string &path);

// Write BYTES to PATH through a temporary file renamed into place, so a
// failed run never leaves a half-written profile.  Throws FormatError.
void write_whole_file (const std::string &path,
                       const std::vector<uint8_t> &bytes);

} // namespace memprof

#endif
