// The Heap Info Block fields as the tools see them: one array of values per
// allocation context, indexed in mib_fields.inc's table order, with each
// field's tag, name and merge rule taken from that one table.
#ifndef MEMPROF_TOOLS_MIB_FIELDS_H
#define MEMPROF_TOOLS_MIB_FIELDS_H

#include <array>
#include <cstdint>
#include <cstddef>

namespace memprof {

enum MergeRule { SUM, MIN, MAX, LAST };

enum FieldIndex
{
#define MEMPROF_MIB_FIELD(TAG, NAME, MERGE) F_##NAME,
#include "memprof/mib_fields.inc"
#undef MEMPROF_MIB_FIELD
  NUM_FIELDS
};

struct FieldInfo
{
  uint64_t tag;
  const char *name;
  MergeRule merge;
};

extern const FieldInfo kFields[NUM_FIELDS];

using FieldValues = std::array<uint64_t, NUM_FIELDS>;

// The field with TAG, or -1.
int field_by_tag (uint64_t tag);
// The field called NAME, or -1.
int field_by_name (const char *name);

// Fold SRC into DST field by field by each field's merge rule; SRC is the
// later record (it wins LAST fields).
void merge_fields (FieldValues &dst, const FieldValues &src);

// The same for two records of one raw profile that symbolize to one
// context (several call instructions of one source position): their
// live-heap fields describe the same moments of one process, so "at
// peak" and "at exit" add up exactly, and the maxima add up to an upper
// bound (the parts' maxima may fall at different moments).
void merge_fields_one_run (FieldValues &dst, const FieldValues &src);

} // namespace memprof

#endif
