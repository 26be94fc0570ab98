// The allocation-stack unwinder.

#ifndef MEMPROF_UNWIND_H
#define MEMPROF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

namespace memprof {

// Fill PCS with up to MAX return addresses minus one, starting with the
// caller of the function whose frame pointer is FRAME (a runtime entry
// point, built with frame pointers).  Returns the number of frames.
// Frames whose PC lies in the runtime's own code are left out.
//
// PT (may be null) holds the calling thread's caches.  When it is given
// and stack_cache is on, the walk goes through the thread's stack cache
// (stack_cache.h) and *ID_SLOT is set to where the depot id of this raw
// stack is kept: non-zero, it is the id of exactly these frames (fold
// and depot_put are then not needed); zero, the caller looks the id up
// and stores it there.  Otherwise *ID_SLOT (ID_SLOT may be null) is set
// to null.  PCS is filled either way.
struct PerThread;
uint32_t unwind_stack (uintptr_t frame, uintptr_t *pcs, uint32_t max,
                       PerThread *pt, uint32_t **id_slot);

// Forget the frame rules learnt so far (shared cache): after a module
// is unmapped, other code may come to its addresses.  Each thread's own
// caches are forgotten by per_thread_forget_code.
void unwind_forget_rules ();

// Whether PC lies in the runtime's own code.
bool pc_in_runtime (uintptr_t pc);

} // namespace memprof

#endif
