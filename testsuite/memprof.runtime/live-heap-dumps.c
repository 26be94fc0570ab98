/* The live-heap fields across dumps: a block still live is reported by
   one dump only (bytes/blocks_at_exit sum when the dumps merge); each
   dump's maxima and "at peak" are the process's so far, and they merge
   by max.  Dump 1: 5 blocks of the first batch live (its peak).  Then 2
   of them freed, 3 of the second batch made: 6 live together (the
   process's peak, 3 of each batch), the second batch's reported at
   exit.  Merged, the first batch's blocks_at_peak is 5, from dump 1's
   peak: the largest over the dumps.  */
/* { dg-do run } */
/* { dg-options "-O2 -I%TOP_SRCDIR%/include" } */

#include <stdlib.h>
#include <memprof/memprof_interface.h>

__attribute__ ((noinline)) static char *
site (void)
{
  char *p = malloc (100);
  __asm__ volatile ("" : : "r" (p) : "memory");
  return p;
}

static char *blocks[8];

__attribute__ ((noinline)) static void
first_batch (void)
{
  for (int i = 0; i < 5; i++)
    blocks[i] = site ();
}

__attribute__ ((noinline)) static void
second_batch (void)
{
  for (int i = 5; i < 8; i++)
    blocks[i] = site ();
}

int
main (void)
{
  first_batch ();
  if (__memprof_profile_dump () != 0)
    return 1;
  free (blocks[0]);
  free (blocks[1]);
  second_batch ();
  return 0;
}

/* { dg-final { memprof-profile-count 2 } } */
/* { dg-final { memprof-record fn=site<first_batch alloc_count==5 blocks_at_exit==5 bytes_at_exit==500 max_live_blocks==5 max_live_bytes==500 blocks_at_peak==5 bytes_at_peak==500 } } */
/* { dg-final { memprof-record fn=site<second_batch alloc_count==3 blocks_at_exit==3 bytes_at_exit==300 max_live_blocks==3 max_live_bytes==300 blocks_at_peak==3 bytes_at_peak==300 } } */
/* { dg-final { memprof-dump-scan {^Peak: 600 bytes live in 6 blocks, [0-9,]+ ms after the start \(the largest of the runs\)$} } } */
