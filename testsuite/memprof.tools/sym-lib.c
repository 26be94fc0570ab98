/* Shared library half of symbolize.exp: an allocation site inside a
   library, reached through an inlined helper.  */
#include "rawgen.h"

static inline __attribute__ ((always_inline)) void
lib_leaf (int n)
{
  rawgen_alloc (64, n, 1, 100);
}

__attribute__ ((noinline)) void
lib_entry (int n)
{
  lib_leaf (n);
  __asm__ volatile ("" ::: "memory");
}
