// The Heap Info Block field table and its merge rules.
#include "mib_fields.h"

#include <algorithm>
#include <cstring>

namespace memprof {

const FieldInfo kFields[NUM_FIELDS] = {
#define MEMPROF_MIB_FIELD(TAG, NAME, MERGE) { TAG, #NAME, MERGE },
#include "memprof/mib_fields.inc"
#undef MEMPROF_MIB_FIELD
};

int
field_by_tag (uint64_t tag)
{
  for (int i = 0; i < NUM_FIELDS; i++)
    if (kFields[i].tag == tag)
      return i;
  return -1;
}

int
field_by_name (const char *name)
{
  for (int i = 0; i < NUM_FIELDS; i++)
    if (std::strcmp (kFields[i].name, name) == 0)
      return i;
  return -1;
}

void
merge_fields_one_run (FieldValues &dst, const FieldValues &src)
{
  static const int kLive[] = { F_bytes_at_peak, F_blocks_at_peak,
                               F_max_live_bytes, F_max_live_blocks };
  uint64_t sums[4];
  for (int k = 0; k < 4; k++)
    sums[k] = dst[kLive[k]] + src[kLive[k]];
  merge_fields (dst, src);
  for (int k = 0; k < 4; k++)
    dst[kLive[k]] = sums[k];
}

void
merge_fields (FieldValues &dst, const FieldValues &src)
{
  for (int i = 0; i < NUM_FIELDS; i++)
    switch (kFields[i].merge)
      {
      case SUM:
        dst[i] += src[i];
        break;
      case MIN:
        dst[i] = std::min (dst[i], src[i]);
        break;
      case MAX:
        dst[i] = std::max (dst[i], src[i]);
        break;
      case LAST:
        dst[i] = src[i];
        break;
      }
}

} // namespace memprof
