// The text report of memprof-dump: a header, then one entry per
// allocation context with its measures, flags that point at action, and
// its symbolized stack.  Layout documented in README.
#ifndef MEMPROF_TOOLS_TEXT_REPORT_H
#define MEMPROF_TOOLS_TEXT_REPORT_H

#include "context_table.h"
#include "report_order.h"

#include <cstdio>
#include <string>
#include <vector>

namespace memprof {

// 1234567 -> "1,234,567", as every count of the text report is shown.
std::string grouped (uint64_t v);
// S as a POSIX shell reads it back as one word: as is when it holds only
// plain characters, else in single quotes ("" for an empty argument).
std::string shell_quoted (const std::string &s);
// "1 block", "1,024 blocks": V grouped, then ONE when V is 1, else MANY.
std::string counted (uint64_t v, const char *one, const char *many);

// Flags of one context ("never accessed", "short-lived", ...).
std::vector<std::string> context_flags (const FieldValues &v);

// Whether MODULE is a shared library in the system's library directories
// (libc.so.6, libstdc++.so.6): code the profiled program did not build.
bool system_library (const std::string &module);

// HEADER_LINES come first, as they are; the totals cover all of
// RECORDS, the entries the first TOP of them (all when TOP is 0).
void write_text_report (FILE *out, const std::vector<std::string> &header_lines,
                        const ContextTable &table, const SortMetric &metric,
                        const std::vector<const Context *> &records,
                        uint64_t top);

} // namespace memprof

#endif
