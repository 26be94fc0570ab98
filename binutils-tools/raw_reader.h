// Reader of raw profiles (include/memprof/raw_format.h).  Validates every
// count and offset against the file before use; a damaged file raises
// FormatError with one line saying what is wrong.
#ifndef MEMPROF_TOOLS_RAW_READER_H
#define MEMPROF_TOOLS_RAW_READER_H

#include "byte_cursor.h"
#include "mib_fields.h"
#include "memprof/raw_format.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace memprof {

struct RawSegment
{
  uint64_t start, end, offset, load_address;
  uint64_t unload_generation = 0;   // 0: loaded at the dump.
  std::string build_id;         // Raw bytes.
  std::string path;
};

struct RawMib
{
  uint64_t stack_id;
  FieldValues fields;
};

// The stack section, read in place: an index of the stacks in file order
// into the profile's bytes, and their ids sorted for lookup, so a million
// stacks cost 48 bytes each, not a vector each.
class RawStacks
{
public:
  struct Entry
  {
    uint64_t id;
    const uint8_t *pcs;         // FRAMES little-endian u64s.
    uint64_t frames;
    // Module generation it was recorded in (version 2; else 0):
    // raw_format.h says how it picks a PC's segment.
    uint64_t generation;
    // Frame K's address, whether a recursion was folded into it (the
    // flag bit of version 3, raw_format.h), and whether the stack was
    // cut after it (version 4).
    uint64_t pc (uint64_t k) const
    {
      return load_u64le (pcs + 8 * k) & ~MEMPROF_RAW_PC_FLAGS;
    }
    bool folded (uint64_t k) const
    {
      return (load_u64le (pcs + 8 * k) & MEMPROF_RAW_PC_RECURSION_FOLDED) != 0;
    }
    bool cut (uint64_t k) const
    {
      return (load_u64le (pcs + 8 * k) & MEMPROF_RAW_PC_STACK_CUT) != 0;
    }
  };

  // Stack ID's entry, or null.  The runtime writes stacks in the order of
  // the MIBs that use them: HINT, the MIB's index, is tried first.
  const Entry *find (uint64_t id, uint64_t hint = UINT64_MAX) const;
  const std::vector<Entry> &entries () const { return index_; }

private:
  friend struct RawSectionReader;
  std::vector<Entry> index_;
  std::vector<std::pair<uint64_t, uint32_t>> by_id_;  // Sorted (id, index).
  // Version 5: the decoded pcs, little-endian u64s the entries point to.
  std::vector<uint8_t> decoded_;
};

// The MIB section, decoded one record at a time.
class RawMibs
{
public:
  uint64_t size () const { return count_; }
  RawMib at (uint64_t i) const;
  uint64_t stack_id (uint64_t i) const;

private:
  friend struct RawSectionReader;
  const uint8_t *data_ = nullptr;
  uint64_t count_ = 0, record_size_ = 0;
  // Version 5: the decoded values, VALUES_ per record (stack id first).
  std::vector<uint64_t> decoded_;
  uint64_t values_ = 0;
};

// One raw profile.  STACKS and MIBS point into the bytes it was read
// from, which must outlive it.
struct RawProfile
{
  uint64_t version = 0;
  // Metadata we show; unknown tags are skipped.
  std::string executable, hostname, runtime_version;
  std::vector<std::string> command_line;
  uint64_t pid = 0, parent_pid = 0, start_time = 0, end_time = 0,
           dump_sequence = 0;
  // The process's live heap peak (version 2 on): bytes, blocks, and ms
  // of the profile's clock.
  bool has_peak = false;
  uint64_t peak_bytes = 0, peak_blocks = 0, peak_time = 0;
  // Bytes one access counter covered (metadata ACCESS_GRANULE): 64, or 8
  // in histogram mode, whose profiles carry HISTOGRAMS: stack id -> the
  // context's slot counts.
  uint64_t access_granule = 64;
  std::unordered_map<uint64_t, std::vector<uint64_t>> histograms;
  // SAMPLE_INTERVAL metadata: 0 for an exact profile.
  uint64_t sample_interval = 0;
  // SITE_CALIBRATED metadata: a sampled profile's per-site counts and
  // bytes are exact.
  bool site_calibrated = false;
  // UNATTRIBUTED_ALLOCS and _BYTES metadata: what no record holds.
  uint64_t unattributed_allocs = 0, unattributed_bytes = 0;
  // UNINSTRUMENTED metadata: no instrumented code ran, no access counted.
  bool uninstrumented = false;
  // WRITTEN_AT metadata: what made the runtime write it (0: not said).
  uint64_t written_at = 0;
  std::vector<RawSegment> segments;
  RawMibs mibs;
  RawStacks stacks;
};

// True when the bytes start like a raw profile.
bool looks_like_raw (const uint8_t *data, size_t size);

// Every profile in the bytes of one raw file, checked whole (every MIB's
// stack exists) before it is returned (a file normally holds one;
// profiles written back to back are read in turn).
std::vector<RawProfile> read_raw_profiles (const uint8_t *data, size_t size);

// Hex digits of a build id.
std::string hex_build_id (const std::string &bytes);

// WRITTEN_AT (raw_format.h) for the report's "Written:" line ("at exit",
// "at SIGTERM, which ended the process", ...), or "" when not known.
std::string written_at_text (uint64_t written_at);
// The same as JSON's "written_at" word ("exit", "signal", ...) or "",
// and *SIGNAL the signal's name for a signal ("SIGTERM"), else "".
std::string written_at_word (uint64_t written_at, std::string *signal);

} // namespace memprof

#endif
