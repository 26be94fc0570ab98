// The exports of memprof-dump --format: the formats of viewers users
// already have.  Each writes the contexts RECORDS of TABLE to OUT and
// returns false on a write error (errno says which).  The mapping from
// our fields to each format's is documented in the manual ("Exports").
#ifndef MEMPROF_TOOLS_EXPORT_FORMATS_H
#define MEMPROF_TOOLS_EXPORT_FORMATS_H

#include "context_table.h"

#include <cstdio>
#include <string>
#include <vector>

namespace memprof {

// What the exports say about the run beside the contexts.
struct RunInfo
{
  std::string command;      // Command line, or the profile's description.
  // A raw profile's executable, runtime version and dump sequence.
  std::string executable, runtime_version;
  uint64_t dump_sequence = 0;
  uint64_t pid = 0;
  uint64_t parent_pid = 0;  // A forked child's parent; 0: none.
  uint64_t duration_ms = 0; // 0 when unknown.
  uint64_t written_at = 0;  // The raw profile's WRITTEN_AT; 0: not said.
  // A sampled profile's allocations at sites no context stands for
  // (the report's "Unattributed:" line), when the export holds every
  // context: each export shows them as one entry, "[unattributed]",
  // so that its totals are the profile's.
  uint64_t unattributed_allocs = 0, unattributed_bytes = 0;
};

// The name of that entry's one frame.
constexpr const char *kUnattributedFrame = "[unattributed]";

// pprof: gzipped profile.proto (export_pprof.cc).
bool write_pprof (FILE *out, const ContextTable &table,
                  const std::vector<const Context *> &records,
                  const RunInfo &run);

// DHAT's JSON, as Valgrind's dh_view.html loads it (export_dhat.cc).
bool write_dhat (FILE *out, const ContextTable &table,
                 const std::vector<const Context *> &records,
                 const RunInfo &run);

// Folded stacks (flamegraph.pl, speedscope, inferno): one line per
// context whose FIELD is not 0, frames root first joined by ';', a
// space, the value (export_folded.cc); and "[unattributed] VALUE" for
// RUN's unattributed bytes or blocks.
bool write_folded (FILE *out, const ContextTable &table,
                   const std::vector<const Context *> &records, int field,
                   const RunInfo &run);

} // namespace memprof

#endif
