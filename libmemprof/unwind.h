// The allocation-stack unwinder.

#ifndef MEMPROF_UNWIND_H
#define MEMPROF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

namespace memprof {

struct PerThread;

// Fill PCS with up to MAX return addresses minus one, starting with the
// caller of the function whose frame pointer is FRAME (a runtime entry
// point, built with frame pointers).  Returns the number of frames.
// Frames whose PC lies in the runtime's own code are left out.  PT (may
// be null) holds the calling thread's frame rule cache.
uint32_t unwind_stack (uintptr_t frame, uintptr_t *pcs, uint32_t max,
                       PerThread *pt);

// The depot id of the allocation stack from FRAME (as unwind_stack
// walks it, stack_depth frames at most, the last one flagged
// MEMPROF_RAW_PC_STACK_CUT when the stack goes on), folded unless
// fold_recursion=0: the context of the allocation.  PT (may be null)
// holds the calling thread's caches; with it, and stack_cache on, a
// repeated stack costs a check of the stack words its walk read
// (stack_cache.h).  0 only when the depot is out of memory.
uint32_t stack_context_id (uintptr_t frame, PerThread *pt);

// Forget the frame rules learnt so far (shared cache): after a module
// is unmapped, other code may come to its addresses.  Each thread's own
// caches are forgotten by per_thread_forget_code.
void unwind_forget_rules ();

// Whether PC lies in the runtime's own code.
bool pc_in_runtime (uintptr_t pc);

} // namespace memprof

#endif
