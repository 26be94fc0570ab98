/* The compiler <-> runtime ABI of gcc-memprof.

   This header is the single definition of every symbol and constant that
   instrumented code (emitted by gcc-plugin/) and the runtime (libmemprof/)
   must agree on.  It is plain C so the plugin, the runtime and the tools
   can all include it.  Bump MEMPROF_ABI_VERSION, and with it the name of
   the link-check symbol, whenever any of this changes incompatibly: a
   program compiled against one ABI then fails to link against a runtime of
   another, naming the missing symbol.  */

#ifndef MEMPROF_ABI_H
#define MEMPROF_ABI_H

/* Shadow mapping: one 8-byte counter per 64-byte granule.
     shadow(addr) = ((addr & ~(GRANULE - 1)) >> SHADOW_SCALE) + base  */
#define MEMPROF_GRANULE_SIZE 64
#define MEMPROF_SHADOW_SCALE 3
#define MEMPROF_COUNTER_SIZE 8

/* Minimum alignment of every heap block: with 32-byte chunk headers no
   64-byte granule holds user bytes of two different blocks.  */
#define MEMPROF_MIN_ALIGNMENT 32
#define MEMPROF_CHUNK_HEADER_SIZE 32

#define MEMPROF_ABI_VERSION 1

/* Histogram mode (-fheapprof-histogram): one 4-byte counter per 8-byte
   slot, saturating at 2^32 - 1, in a shadow of its own (half the size of
   the address space it covers: 64 TiB reserved, committed only where
   counters are written):
     shadow(addr) = ((addr & ~(SLOT - 1)) >> HISTOGRAM_SHADOW_SCALE) + base
   Instrumented code of that mode uses its own base symbol and runtime
   entry points (below), so the default mode's code and runtime paths are
   those of a runtime without histograms.  */
#define MEMPROF_HISTOGRAM_SLOT_SIZE 8
#define MEMPROF_HISTOGRAM_SHADOW_SCALE 1
#define MEMPROF_HISTOGRAM_COUNTER_SIZE 4
#define MEMPROF_HISTOGRAM_COUNTER_MAX 0xffffffffu

/* Symbols referenced by instrumented code.  */
#define MEMPROF_SHADOW_BASE_SYMBOL "__memprof_shadow_memory_dynamic_address"
#define MEMPROF_INIT_SYMBOL "__memprof_init"
/* void f (void): initialises the runtime, like __memprof_init; every
   instrumented unit's constructor calls it.  It is the one symbol
   instrumented code references strongly (every other reference to the
   runtime is weak): linking instrumented code without the runtime, or
   against a runtime of another ABI version, fails with a single
   undefined reference whose name says what to do.  */
#define MEMPROF_LINK_CHECK_SYMBOL \
  "__memprof_runtime_v1_missing__link_with_fheapprof"
/* The same for units compiled with -fheapprof-histogram: it also
   registers the unit's mode.  A process whose units disagree (one with,
   one without -fheapprof-histogram) stops at start-up with one line
   saying so, rather than count into two shadows.  */
#define MEMPROF_HISTOGRAM_LINK_CHECK_SYMBOL \
  "__memprof_runtime_v1_histogram_missing__link_with_fheapprof"
/* Histogram mode's shadow base, set when the first unit of that mode
   registers (its priority-1 constructor).  */
#define MEMPROF_HISTOGRAM_SHADOW_BASE_SYMBOL "__memprof_histogram_shadow_base"
/* Histogram mode's counterparts of the callbacks, memory builtins and
   strided count below: same signatures, counting 8-byte slots.  */
#define MEMPROF_HISTOGRAM_LOAD_CALLBACK "__memprof_hist_load"
#define MEMPROF_HISTOGRAM_STORE_CALLBACK "__memprof_hist_store"
#define MEMPROF_HISTOGRAM_MEMCPY "__memprof_hist_memcpy"
#define MEMPROF_HISTOGRAM_MEMMOVE "__memprof_hist_memmove"
#define MEMPROF_HISTOGRAM_MEMSET "__memprof_hist_memset"
#define MEMPROF_HISTOGRAM_COUNT_STRIDED "__memprof_hist_count_strided"
/* Weak, NUL-terminated char array emitted by the plugin when
   -fplugin-arg-memprof-dir=DIR (or -fheapprof=DIR) was given.  */
#define MEMPROF_PROFILE_DIR_SYMBOL "__memprof_profile_dir"
/* void f (const char *dir): called with DIR by the constructor of every
   unit compiled with a directory, after the link check (and referenced
   as strongly).  The symbol above is found only while the program
   exports it; a version script with "local: *;" hides it, and the
   directory would be lost without a word.  */
#define MEMPROF_SET_PROFILE_DIR_SYMBOL "__memprof_set_profile_dir"
/* Callback mode (-fplugin-arg-memprof-callbacks): void f (uintptr_t addr).  */
#define MEMPROF_LOAD_CALLBACK "__memprof_load"
#define MEMPROF_STORE_CALLBACK "__memprof_store"
/* Memory builtins are replaced by these; same signatures as the libc
   functions.  They count the range by the rule in range_access.h and then
   perform the operation without counting it again.  */
#define MEMPROF_MEMCPY "__memprof_memcpy"
#define MEMPROF_MEMMOVE "__memprof_memmove"
#define MEMPROF_MEMSET "__memprof_memset"
/* The counts of a loop's accesses to ADDR, ADDR + STRIDE, ... (COUNT of
   them), added when the loop ends instead of one at a time: void
   f (uintptr_t addr, uintptr_t count, uintptr_t stride), the rule of
   memprof_count_strided in range_access.h.  */
#define MEMPROF_COUNT_STRIDED "__memprof_count_strided"
/* An access of N bytes at ADDR counted by the range rule, as a memcpy's
   range is: void f (const void *addr, size_t n).  The plugin calls it
   in histogram mode for aggregates (a struct copied whole), which cover
   several slots.  */
#define MEMPROF_RECORD_ACCESS_RANGE "__memprof_record_access_range"

#ifdef __cplusplus
extern "C" {
#endif
#ifndef MEMPROF_NO_ABI_DECLS
#include <stddef.h>
#include <stdint.h>
extern uintptr_t __memprof_shadow_memory_dynamic_address;
extern uintptr_t __memprof_histogram_shadow_base;
void __memprof_init (void);
void __memprof_runtime_v1_missing__link_with_fheapprof (void);
void __memprof_runtime_v1_histogram_missing__link_with_fheapprof (void);
void __memprof_set_profile_dir (const char *dir);
void __memprof_hist_load (uintptr_t addr);
void __memprof_hist_store (uintptr_t addr);
void *__memprof_hist_memcpy (void *dst, const void *src, size_t n);
void *__memprof_hist_memmove (void *dst, const void *src, size_t n);
void *__memprof_hist_memset (void *dst, int c, size_t n);
void __memprof_hist_count_strided (uintptr_t addr, uintptr_t count,
                                   uintptr_t stride);
void __memprof_load (uintptr_t addr);
void __memprof_store (uintptr_t addr);
void *__memprof_memcpy (void *dst, const void *src, size_t n);
void *__memprof_memmove (void *dst, const void *src, size_t n);
void *__memprof_memset (void *dst, int c, size_t n);
/* Count an access of N bytes at ADDR by the range rule.  */
void __memprof_record_access_range (const void *addr, size_t n);
void __memprof_count_strided (uintptr_t addr, uintptr_t count,
                              uintptr_t stride);
#endif
#ifdef __cplusplus
}
#endif

#endif /* MEMPROF_ABI_H */
