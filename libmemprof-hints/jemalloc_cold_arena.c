/* The jemalloc route of -fheapprof-use: a cold malloc (n) is compiled to
   mallocx (MAX (n, 1), __memprof_jemalloc_cold_flags ()), a cold calloc
   to __memprof_jemalloc_cold_calloc, a cold operator new to
   __memprof_jemalloc_cold_new (jemalloc_cold_new.cc), so cold blocks
   share pages with each other only, in an arena of their own, created on
   first use.  The flags also bypass the thread cache, which would hand
   out the default arena's recently freed (hot) memory.  If jemalloc
   cannot make an arena, the flags are 0: mallocx then is malloc.  Blocks
   from any arena are freed by jemalloc's free ().

   The jemalloc declarations are written out here (jemalloc's ABI, stable
   since 4.0: jemalloc.h's MALLOCX_ARENA and MALLOCX_TCACHE_NONE) so the
   archive builds without jemalloc's headers; this member is linked only
   into programs built with -fheapprof-use-allocator=jemalloc, which the
   spec links with -ljemalloc.  */

#include <stddef.h>

extern int mallctl (const char *name, void *oldp, size_t *oldlenp,
                    void *newp, size_t newlen);
extern void *mallocx (size_t size, int flags);

#define COLD_MALLOCX_ARENA(a) ((int) (((unsigned) (a) + 1) << 20))
#define COLD_MALLOCX_TCACHE_NONE ((int) ((-1 + 2) << 8))
#define COLD_MALLOCX_ZERO ((int) 0x40)

static int cold_flags = -1; /* -1: not made yet.  */

int __memprof_jemalloc_cold_flags (void);
void *__memprof_jemalloc_cold_calloc (size_t n, size_t size);

int
__memprof_jemalloc_cold_flags (void)
{
  int flags = __atomic_load_n (&cold_flags, __ATOMIC_ACQUIRE);
  if (flags != -1)
    return flags;
  unsigned arena = 0;
  size_t len = sizeof arena;
  int made = mallctl ("arenas.create", &arena, &len, NULL, 0) == 0;
  flags = made ? COLD_MALLOCX_ARENA (arena) | COLD_MALLOCX_TCACHE_NONE : 0;
  /* Two threads racing here each make an arena; one wins, the other
     arena stays unused (a few pages of address space).  */
  int expected = -1;
  if (!__atomic_compare_exchange_n (&cold_flags, &expected, flags, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    flags = expected;
  return flags;
}

/* A cold calloc (N, SIZE): calloc's overflow check, then zeroed memory
   from the cold arena.  */
void *
__memprof_jemalloc_cold_calloc (size_t n, size_t size)
{
  size_t bytes;
  if (__builtin_mul_overflow (n, size, &bytes))
    return NULL;
  return mallocx (bytes ? bytes : 1,
                  __memprof_jemalloc_cold_flags () | COLD_MALLOCX_ZERO);
}
