// A free or realloc of a pointer the allocator never returned, or of a
// block already freed.  glibc aborts with one line ("free(): double free
// detected"); so do we, with the address and the stack (PCs: the runtime
// does not symbolize), after writing the profile so the run is not lost.
// MEMPROF_OPTIONS=abort_on_invalid_free=0 reports and goes on.

#include "runtime.h"
#include "flags.h"
#include "unwind.h"

#include "memprof/memprof_interface.h"

#include <stdlib.h>

namespace memprof {

void
report_invalid_free (const char *fn, const char *what, const void *p)
{
  // Frames in the runtime are left out: the stack starts at the caller
  // of FN.
  uintptr_t pcs[32];
  uint32_t n = unwind_stack (MEMPROF_FRAME, pcs, 32, nullptr);
  char line[800];
  size_t len
    = format (line, sizeof line, "memprof: %s(): %s %p; stack:", fn, what, p);
  for (uint32_t i = 0; i < n; i++)
    len += format (line + len, sizeof line - len, " 0x%lx",
                   (unsigned long) pcs[i]);
  report ("%s", line);
  if (!flags.abort_on_invalid_free)
    return;
  __memprof_profile_dump ();
  // Written: no second profile from whatever else abort sets off (a
  // dump at SIGABRT honours dump_at_exit too).
  flags.dump_at_exit = false;
  abort ();
}

} // namespace memprof
