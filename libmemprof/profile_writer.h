// Serialising a profile in the raw format of memprof/raw_format.h, and
// the optional text report.

#ifndef MEMPROF_PROFILE_WRITER_H
#define MEMPROF_PROFILE_WRITER_H

#include <stdint.h>

#include "hib_table.h"
#include "histogram_table.h"

namespace memprof {

struct ProfileMeta
{
  uint64_t pid;
  uint64_t parent_pid;      // Non-zero in a forked child.
  uint64_t start_time_ms;   // Unix ms of the clock's zero.
  uint64_t end_time_ms;     // Unix ms of this dump.
  uint64_t dump_sequence;
  // The process's live heap peak (live_heap.h): bytes, blocks, and when
  // (ms of the profile's clock).
  uint64_t peak_bytes, peak_blocks, peak_time_ms;
  // Histogram mode: the per-context histograms (may be empty); the
  // default mode writes neither them nor their metadata.
  bool histogram_mode;
  const HistogramNode *histograms;
  // The sampling mode's interval (sampler.h), 0 in the exact mode.
  uint64_t sample_interval;
  // Sampling mode: the records were scaled to the exact per-site
  // totals (site_calibration.h), except allocations and bytes no record
  // holds.
  bool site_calibrated;
  uint64_t unattributed_allocs, unattributed_bytes;
  // No instrumented unit registered: no access could be counted.
  bool uninstrumented;
  // What made this dump: MEMPROF_META_WRITTEN_AT's value.
  uint64_t written_at;
};

// Keep the command line as the program started (ARGV null: read it from
// /proc/self/cmdline now), before the program can rewrite its argv.
// NUL-separated like /proc/self/cmdline; at most 64 KiB are kept.
void record_command_line (int argc, char **argv);

// Write the whole profile to FD.  Returns 0 or a negative errno.
int write_raw_profile (int fd, const HibNode *records,
                       const ProfileMeta &meta);

// Orders the records as the text report prints them (largest total
// size first); *TAIL follows the list's new last node.
void sort_records_for_text (HibNode **records, HibNode **tail);
// Prints the records readably on stderr.
void print_text_report (const HibNode *records, const ProfileMeta &meta);

} // namespace memprof

#endif
