// The --json document of memprof-dump:
//   {"kind": "raw"|"indexed", "version": N, ..., "records": [R...]}
// (a raw profile's also "command", "pid" and "run_time_ms").
// R = {"stack": [F...], "type": {"name": S, "size": N, "module": S} or null,
//      <every mib_fields.inc field by name>: N, ...}
// F = {"function", "file", "line", "column", "discriminator", "inlined",
//      "folded", "module", "address"}.  Histogram profiles: R also has
// "histogram": [N...] and "fields": [{"name", "offset", "size",
// "accesses", "kind", "shared", "cold"}...] or null (field_report.h).
// The schema is documented in README.
#ifndef MEMPROF_TOOLS_JSON_OUTPUT_H
#define MEMPROF_TOOLS_JSON_OUTPUT_H

#include "context_table.h"
#include "export_formats.h"

#include <cstdio>
#include <string>
#include <vector>

namespace memprof {

// False on a write error (errno says which); the document is then cut.
// RUN: a raw profile's run (command line, pid, length), or null.
bool write_json (FILE *out, const char *kind, uint64_t version,
                 const ContextTable &table,
                 const std::vector<const Context *> &records,
                 const RunInfo *run = nullptr);

// One frame F of a record's "stack" as a JSON object.
std::string frame_json (const Frame &f);

// S as a JSON string literal, quotes included.
std::string json_string (const std::string &s);

} // namespace memprof

#endif
