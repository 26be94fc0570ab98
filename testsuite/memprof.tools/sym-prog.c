/* Program for symbolize.exp: allocation sites behind two levels of
   inlining, in a plain function, and in a shared library (when built
   with -DWITH_LIB).  argv[1] is the raw profile to write.  */
#include "rawgen.h"

void lib_entry (int n);

static inline __attribute__ ((always_inline)) void
leaf (int n)
{
  rawgen_alloc (100, n, 5, 50);
}

static inline __attribute__ ((always_inline)) void
other_leaf (int n)
{
  rawgen_alloc (200, n, 5, 50);
}

static inline __attribute__ ((always_inline)) void
middle (int n)
{
  leaf (n);
  other_leaf (n + 1);
}

__attribute__ ((noinline)) void
top (int n)
{
  middle (n);
  __asm__ volatile ("" ::: "memory");
}

__attribute__ ((noinline)) void
plain (void)
{
  rawgen_alloc (4096, 0, 0, 0);
  __asm__ volatile ("" ::: "memory");
}

int
main (int argc, char **argv)
{
  top (1);
  plain ();
#ifdef WITH_LIB
  lib_entry (7);
#endif
  rawgen_write (argc > 1 ? argv[1] : "sym-prog.memprofraw");
  return 0;
}
