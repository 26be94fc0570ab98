/* The public interface of the gcc-memprof runtime (libmemprof).

   Programs built with -fheapprof may call these to control when profiles
   are written, e.g. in long-running servers.  Both are safe to call from
   any thread at any time after main has started.  */

#ifndef MEMPROF_MEMPROF_INTERFACE_H
#define MEMPROF_MEMPROF_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Write a complete raw profile now, as a new file in the profile
   directory (never appending to or replacing another file).  It holds
   every block freed since the previous dump (or reset, or process start)
   and every block still live, folded in as if freed now.  A live block a
   dump reports is final there: its later accesses and its free are not
   reported again, so merging all of a process's dumps counts nothing
   twice.  Returns 0 on success, -1 if the file could not be written (a
   line on stderr names it).  */
int __memprof_profile_dump (void);

/* Start afresh: drop everything gathered so far and stop profiling the
   blocks live now; later dumps hold only what happens from here on.  */
void __memprof_profile_reset (void);

/* Count an access of N bytes at ADDR by the range rule (one increment
   per 64-byte granule the range overlaps), e.g. for memory written by
   code the compiler did not instrument.  */
void __memprof_record_access_range (const void *addr, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* MEMPROF_MEMPROF_INTERFACE_H */
