// The allocation-stack unwinder.

#ifndef MEMPROF_UNWIND_H
#define MEMPROF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

namespace memprof {

// Fill PCS with up to MAX return addresses minus one, starting with the
// caller of the function whose frame pointer is FRAME (a runtime entry
// point, built with frame pointers).  Returns the number of frames.
uint32_t unwind_stack (uintptr_t frame, uintptr_t *pcs, uint32_t max);

} // namespace memprof

#endif
