/* Program for real-runs.exp, built with the memprof specs: each run
   allocates 10 blocks of 32 bytes at make_block's site and fills each
   once.  Blocks are 32-byte aligned, so a block lies in one 64-byte
   granule and its memset counts exactly one access.  */
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) char *
make_block (void)
{
  char *p = malloc (32);
  memset (p, 1, 32);
  return p;
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    free (make_block ());
  return 0;
}
