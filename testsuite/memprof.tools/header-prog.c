/* Program for header.exp: writes the raw profile argv[1] with the run's
   times and peak given as arguments (ms): START END PEAK_TIME
   [LIFETIME], one allocation (living LIFETIME ms, default 1) and a peak
   of 100 bytes in 1 block.  */
#include "rawgen.h"

__attribute__ ((noinline)) void
one_site (uint64_t lifetime)
{
  rawgen_alloc (100, 10, lifetime, 100);
  __asm__ volatile ("" ::: "memory");
}

int
main (int argc, char **argv)
{
  if (argc != 5 && argc != 6)
    return 2;
  one_site (argc == 6 ? strtoull (argv[5], NULL, 10) : 1);
  rawgen_meta (MEMPROF_META_START_TIME, strtoull (argv[2], NULL, 10));
  rawgen_meta (MEMPROF_META_END_TIME, strtoull (argv[3], NULL, 10));
  rawgen_meta (MEMPROF_META_PEAK_BYTES, 100);
  rawgen_meta (MEMPROF_META_PEAK_BLOCKS, 1);
  rawgen_meta (MEMPROF_META_PEAK_TIME, strtoull (argv[4], NULL, 10));
  rawgen_write (argv[1]);
  return 0;
}
