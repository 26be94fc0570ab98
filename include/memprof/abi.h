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
/* Weak, NUL-terminated char array emitted by the plugin when
   -fplugin-arg-memprof-dir=DIR (or -fheapprof=DIR) was given.  */
#define MEMPROF_PROFILE_DIR_SYMBOL "__memprof_profile_dir"
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

#ifdef __cplusplus
extern "C" {
#endif
#ifndef MEMPROF_NO_ABI_DECLS
#include <stddef.h>
#include <stdint.h>
extern uintptr_t __memprof_shadow_memory_dynamic_address;
void __memprof_init (void);
void __memprof_runtime_v1_missing__link_with_fheapprof (void);
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
