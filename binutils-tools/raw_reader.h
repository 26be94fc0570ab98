// Reader of raw profiles (include/memprof/raw_format.h).  Validates every
// count and offset against the file before use; a damaged file raises
// FormatError with one line saying what is wrong.
#ifndef MEMPROF_TOOLS_RAW_READER_H
#define MEMPROF_TOOLS_RAW_READER_H

#include "mib_fields.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace memprof {

struct RawSegment
{
  uint64_t start, end, offset, load_address;
  std::string build_id;         // Raw bytes.
  std::string path;
};

struct RawMib
{
  uint64_t stack_id;
  FieldValues fields;
};

struct RawProfile
{
  uint64_t version = 0;
  // Metadata we show; unknown tags are skipped.
  std::string executable, hostname, runtime_version;
  std::vector<std::string> command_line;
  uint64_t pid = 0, parent_pid = 0, start_time = 0, end_time = 0,
           dump_sequence = 0;
  std::vector<RawSegment> segments;
  std::vector<RawMib> mibs;
  std::unordered_map<uint64_t, std::vector<uint64_t>> stacks;
};

// True when the bytes start like a raw profile.
bool looks_like_raw (const uint8_t *data, size_t size);

// Every profile in the bytes of one raw file (a file normally holds one;
// profiles written back to back are read in turn).
std::vector<RawProfile> read_raw_profiles (const uint8_t *data, size_t size);

// Hex digits of a build id.
std::string hex_build_id (const std::string &bytes);

} // namespace memprof

#endif
