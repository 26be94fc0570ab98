/* -fplugin-arg-memprof-stats: one line per function on stderr,

     memprof: FUNC: N instrumented, M skipped (L local, G global,
       S stack-pointer, C constant, A asm, U unsupported), B builtins,
       E at loop exits, P paired

   on one line (E of the N instrumented accesses are counted when their
   loop exits, loop_counts.cc; P are counted together with an earlier
   access of their block when the two share a granule, counter_asm.cc),
   so that users and tests can see what was counted.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

void
memprof_report_statistics (function *fun, const memprof_function_stats &s)
{
  unsigned skipped = 0;
  for (unsigned n : s.skipped)
    skipped += n;
  fprintf (stderr,
	   "memprof: %s: %u instrumented, %u skipped (%u local, %u global, "
	   "%u stack-pointer, %u constant, %u asm, %u unsupported), "
	   "%u builtins, %u at loop exits, %u paired\n",
	   function_name (fun), s.instrumented, skipped,
	   s.skipped[MEMPROF_SKIP_LOCAL], s.skipped[MEMPROF_SKIP_GLOBAL],
	   s.skipped[MEMPROF_SKIP_STACK_POINTER],
	   s.skipped[MEMPROF_SKIP_CONSTANT], s.skipped[MEMPROF_SKIP_ASM],
	   s.skipped[MEMPROF_SKIP_UNSUPPORTED], s.builtins_redirected,
	   s.at_loop_exits, s.paired);
}
