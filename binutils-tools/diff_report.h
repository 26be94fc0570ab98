// memprof-dump --diff: two profiles' contexts matched by their
// symbolized stacks (the source positions of their frames, as
// memprof-merge matches them), ordered by the change in one field.
#ifndef MEMPROF_TOOLS_DIFF_REPORT_H
#define MEMPROF_TOOLS_DIFF_REPORT_H

#include "context_table.h"

#include <cstdio>
#include <string>
#include <vector>

namespace memprof {

struct ContextChange
{
  enum Status { CHANGED, SAME, NEW, VANISHED } status;
  uint64_t base = 0, next = 0;      // The field in BASE and in NEW.
  int64_t delta () const { return int64_t (next) - int64_t (base); }
  // The context's stack, from NEW (from BASE for a vanished one).
  const ContextTable *table;
  const Context *context;
};

// Every context of BASE and of NEW, by |change| of FIELD, largest
// first; ties by stack, so the order is stable.
std::vector<ContextChange> diff_contexts (const ContextTable &base,
                                          const ContextTable &next, int field);

// The totals cover all CHANGES, the entries the first TOP (0: all).
void write_diff_text (FILE *out, const std::string &base_name,
                      const std::string &new_name, const std::string &metric,
                      const std::vector<ContextChange> &changes, uint64_t top);
void write_diff_json (FILE *out, const std::string &base_name,
                      const std::string &new_name, const std::string &metric,
                      const std::vector<ContextChange> &changes);

} // namespace memprof

#endif
