// Heap Info Blocks: per allocation context, what its blocks did.

#ifndef MEMPROF_HIB_TABLE_H
#define MEMPROF_HIB_TABLE_H

#include <stdint.h>

#include "memprof/raw_format.h"

namespace memprof {

// One block's life, gathered at its free (or at a dump while live).
struct BlockLife
{
  uint32_t context_id;
  uint64_t size;
  uint64_t access_count;
  uint32_t percent_utilized;
  uint32_t alloc_timestamp, dealloc_timestamp;
  uint32_t alloc_cpu, dealloc_cpu;
  uint64_t data_type_id;
};

// Merge one block into its context's record.
void hib_record (const BlockLife &life);

// The records taken out of the table by hib_take: a list of nodes.
struct HibNode
{
  HibNode *next;
  memprof_raw_mib mib;   // mib.stack_id is the context id.
};

// Detach every record (the table is empty afterwards; records merged
// meanwhile go to the next take).  Give the list back with hib_recycle.
HibNode *hib_take ();
void hib_recycle (HibNode *list);

// Drop every record (reset, fork child).
void hib_clear ();

void hib_lock_all ();
void hib_unlock_all ();
void hib_reset_locks_after_fork ();

} // namespace memprof

#endif
