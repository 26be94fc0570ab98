/* A sampled context's maximum live estimate rests on the sampled blocks
   live at that moment, each standing for about the interval's bytes
   when small: 30,000 blocks of 472 bytes, one live at a time (a FILE
   opened and closed in turn, as ninja's 30,000 fopen calls), read
   "max 885,121 bytes, 1,875 blocks" with nothing saying so.  The report
   now says the maximum is rough and about how many sampled blocks it
   rests on; a context of big blocks, every one recorded, gets no such
   note.  */
/* { dg-do run } */
/* { dg-options "-O1" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1048576:sample_seed=1" } */

#include <stdlib.h>

__attribute__ ((noinline)) void
one_at_a_time (void)
{
  for (int i = 0; i < 30000; i++)
    {
      char *f = malloc (472);
      f[0] = 1;
      __asm__ volatile ("" : : "r"(f) : "memory");
      free (f);
    }
}

__attribute__ ((noinline)) void
big_blocks (void)
{
  for (int i = 0; i < 4; i++)
    {
      char *b = malloc (8 << 20);
      b[0] = 1;
      __asm__ volatile ("" : : "r"(b) : "memory");
      free (b);
    }
}

int
main (void)
{
  one_at_a_time ();
  big_blocks ();
  return 0;
}

/* { dg-final { memprof-dump-scan {^bytes: +14,160,000 in 30,000 blocks \(avg size 472\.0, min 472, max 472\)\n[^\n]*\nlive: +0 bytes in 0 blocks at the peak; max [0-9,]+ bytes, [0-9,]+ blocks \(rough: about 1 sampled block live then\); 0 bytes in 0 blocks at exit\n} } } */
/* { dg-final { memprof-dump-scan {^live: +[0-9,]+ bytes in [0-9,]+ blocks? at the peak; max 8,388,608 bytes, 1 block; 0 bytes in 0 blocks at exit$} } } */
