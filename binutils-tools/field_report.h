// memprof-dump --fields: per context (or per type with --by-type), the
// accesses of each field of the context's type, from a histogram
// profile's slots (field_map.h) and the type's layout (type_layout.h);
// and the layouts' lookup for memprof-merge and for raw profiles.
#ifndef MEMPROF_TOOLS_FIELD_REPORT_H
#define MEMPROF_TOOLS_FIELD_REPORT_H

#include "context_table.h"
#include "field_map.h"
#include "symbolizer.h"

#include <cstdio>
#include <string>
#include <vector>

namespace memprof {

// Finds in DWARF the layout of every context's type TABLE has none of
// (histogram profiles only: a default-mode profile has no use for them).
// A module without debug info is one warning naming it, "PROGRAM:
// MODULE: warning: no field layouts: REASON", once; a type it lacks, one
// per type.  Neither is an error.
void resolve_layouts (ContextTable &table, Symbolizer &sym);

// The field report of context C, or false when its type or the type's
// layout is unknown (or C has no histogram).
bool context_field_report (const ContextTable &table, const Context &c,
                           FieldReport &report,
                           const TypeLayout **layout = nullptr);

// C's "fields" JSON value: the rows, or null.
std::string context_fields_json (const ContextTable &table, const Context &c);

// The --fields text report of RECORDS (the first TOP; all when 0), per
// context, or per type across contexts when BY_TYPE.
void write_fields_report (FILE *out, const std::vector<std::string> &header,
                          const ContextTable &table,
                          const std::vector<const Context *> &records,
                          uint64_t top, bool by_type);

} // namespace memprof

#endif
