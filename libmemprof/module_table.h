// Modules as they load and unload.  The stack depot stores PCs; a PC
// means something only with the module mapped at it when it was
// recorded.  Modules loaded at a dump are listed then (dl_iterate_phdr);
// a module closed before the dump is described while it is still mapped
// (dlclose is intercepted) and kept when some recorded stack has frames
// in it.  Since a later module may be mapped at the same addresses, each
// unmapping starts a new module generation: stacks recorded before it
// are retired from the depot's lookups (their ids stay valid), so a
// stack recorded after it gets a new id of the new generation even when
// its PCs are the same.  raw_format.h says how a reader resolves them.
//
// The allocation path only compares the thread's generation with the
// global one (its caches of PCs are forgotten when they differ): no
// module lookup per allocation.

#ifndef MEMPROF_MODULE_TABLE_H
#define MEMPROF_MODULE_TABLE_H

#include <link.h>
#include <stdint.h>

#include "memprof/raw_format.h"

namespace memprof {

// Goes up by one each time dlclose unmaps a module.
extern uint32_t module_generation;
inline uint32_t
current_module_generation ()
{
  return __atomic_load_n (&module_generation, __ATOMIC_ACQUIRE);
}

// One module's identity and executable segments, read while it is
// mapped.
struct ModuleRecord
{
  static constexpr uint32_t kMaxSegments = 8;
  static constexpr uint32_t kMaxPath = 4096;
  uintptr_t bias;                 // dlpi_addr.
  const void *phdr;               // dlpi_phdr: with BIAS, its identity.
  uint32_t unload_generation;     // 0 while loaded.
  uint32_t build_id_size;
  uint8_t build_id[MEMPROF_BUILD_ID_MAX];
  uint32_t num_segments;
  struct Segment
  {
    uint64_t start, end, offset;
  } segments[kMaxSegments];
  char path[kMaxPath];
};

// Describe the module INFO (the first module dl_iterate_phdr reports is
// the executable: IS_MAIN).
void describe_module (const dl_phdr_info *info, bool is_main,
                      ModuleRecord *out);

// Call FN for every closed module kept, oldest first.
void for_each_closed_module (void (*fn) (const ModuleRecord &m, void *arg),
                             void *arg);

// In a forked child: release what a thread of the parent may have held.
void modules_after_fork_child ();

} // namespace memprof

#endif
