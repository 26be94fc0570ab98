// The text report (MEMPROF_OPTIONS=print_text=1): one block of lines per
// allocation context on stderr, largest total size first, frames as
// module+offset and, where the dynamic symbol table knows it, the
// function.  Full symbols and source lines are memprof-dump's work (it
// has libdw); this report runs inside the program and allocates nothing.

#include "profile_writer.h"
#include "internal.h"
#include "stack_depot.h"
#include "memprof/raw_format.h"

#include <dlfcn.h>

namespace memprof {

namespace {

const char *
base_name (const char *path)
{
  const char *b = path;
  for (const char *p = path; *p; p++)
    if (*p == '/')
      b = p + 1;
  return b;
}

void
print_frame (uint32_t i, uintptr_t pc)
{
  const char *folded = (pc & MEMPROF_RAW_PC_RECURSION_FOLDED)
                         ? (pc & MEMPROF_RAW_PC_STACK_CUT
                              ? " [recursion folded] [stack cut here]"
                              : " [recursion folded]")
                         : pc & MEMPROF_RAW_PC_STACK_CUT
                             ? " [stack cut here]" : "";
  pc &= ~MEMPROF_RAW_PC_FLAGS;
  Dl_info info;
  if (dladdr ((void *) pc, &info) && info.dli_fname)
    {
      uintptr_t off = pc - (uintptr_t) info.dli_fbase;
      if (info.dli_sname)
        report ("    #%u 0x%lx %s+0x%lx (%s)%s", i, (unsigned long) pc,
                base_name (info.dli_fname), (unsigned long) off,
                info.dli_sname, folded);
      else
        report ("    #%u 0x%lx %s+0x%lx%s", i, (unsigned long) pc,
                base_name (info.dli_fname), (unsigned long) off, folded);
      return;
    }
  report ("    #%u 0x%lx%s", i, (unsigned long) pc, folded);
}

// Whether record A is printed before record B: larger total size first,
// then more allocations, then the lower context id, so the order is the
// same from run to run.
bool
prints_before (const HibNode *a, const HibNode *b)
{
  if (a->mib.total_size != b->mib.total_size)
    return a->mib.total_size > b->mib.total_size;
  if (a->mib.alloc_count != b->mib.alloc_count)
    return a->mib.alloc_count > b->mib.alloc_count;
  return a->mib.stack_id < b->mib.stack_id;
}

// Merges two sorted lists.
HibNode *
merge_sorted (HibNode *a, HibNode *b)
{
  HibNode head;
  HibNode *tail = &head;
  while (a && b)
    {
      HibNode **from = prints_before (b, a) ? &b : &a;
      tail->next = *from;
      tail = *from;
      *from = (*from)->next;
    }
  tail->next = a ? a : b;
  return head.next;
}

} // namespace

// A bottom-up merge sort of the list: no allocation, O(n log n), and
// stable; *TAIL is set to the new last node.
void
sort_records_for_text (HibNode **records, HibNode **tail)
{
  // runs[k] holds a sorted run of 2^k nodes, or null.
  HibNode *runs[64] = {};
  HibNode *r = *records;
  while (r)
    {
      HibNode *one = r;
      r = r->next;
      one->next = nullptr;
      int k = 0;
      for (; runs[k]; k++)
        {
          one = merge_sorted (runs[k], one);
          runs[k] = nullptr;
        }
      runs[k] = one;
    }
  HibNode *sorted = nullptr;
  for (int k = 0; k < 64; k++)
    if (runs[k])
      sorted = merge_sorted (runs[k], sorted);
  *records = sorted;
  HibNode *last = nullptr;
  for (HibNode *n = sorted; n; n = n->next)
    last = n;
  if (last)
    *tail = last;
}

void
print_text_report (const HibNode *records, const ProfileMeta &meta)
{
  uint64_t n = 0;
  for (const HibNode *r = records; r; r = r->next)
    n++;
  report ("memprof: profile of pid %lu (dump %lu): %lu allocation contexts",
          (unsigned long) meta.pid, (unsigned long) meta.dump_sequence,
          (unsigned long) n);
  if (meta.sample_interval && meta.site_calibrated)
    report ("memprof: sampled profile (sample_interval=%lu): counts and "
            "sizes are exact per allocation site with a sampled block, "
            "their split among contexts, accesses and live bytes are "
            "estimates",
            (unsigned long) meta.sample_interval);
  else if (meta.sample_interval)
    report ("memprof: sampled profile (sample_interval=%lu): counts, sizes, "
            "accesses and live bytes are estimates",
            (unsigned long) meta.sample_interval);
  for (const HibNode *r = records; r; r = r->next)
    {
      const memprof_raw_mib &m = r->mib;
      uint64_t c = m.alloc_count ? m.alloc_count : 1;
      report ("context %lu: alloc_count %lu", (unsigned long) m.stack_id,
              (unsigned long) m.alloc_count);
      report ("  size (total/min/avg/max): %lu %lu %lu %lu",
              (unsigned long) m.total_size, (unsigned long) m.min_size,
              (unsigned long) (m.total_size / c), (unsigned long) m.max_size);
      report ("  access_count (total/min/avg/max): %lu %lu %lu %lu",
              (unsigned long) m.total_access_count,
              (unsigned long) m.min_access_count,
              (unsigned long) (m.total_access_count / c),
              (unsigned long) m.max_access_count);
      report ("  lifetime ms (total/min/avg/max): %lu %lu %lu %lu",
              (unsigned long) m.total_lifetime,
              (unsigned long) m.min_lifetime,
              (unsigned long) (m.total_lifetime / c),
              (unsigned long) m.max_lifetime);
      report ("  percent_utilized (min/avg/max): %lu %lu %lu",
              (unsigned long) m.min_percent_utilized,
              (unsigned long) (m.total_percent_utilized / c),
              (unsigned long) m.max_percent_utilized);
      report ("  cpu: alloc %lu dealloc %lu migrated %lu same_alloc %lu "
              "same_dealloc %lu; lifetime_overlaps %lu",
              (unsigned long) m.alloc_cpu_id, (unsigned long) m.dealloc_cpu_id,
              (unsigned long) m.num_migrated_cpu,
              (unsigned long) m.num_same_alloc_cpu,
              (unsigned long) m.num_same_dealloc_cpu,
              (unsigned long) m.num_lifetime_overlaps);
      const uintptr_t *pcs = nullptr;
      uint32_t depth = depot_get ((uint32_t) m.stack_id, &pcs);
      for (uint32_t i = 0; i < depth; i++)
        print_frame (i, pcs[i]);
    }
}

} // namespace memprof
