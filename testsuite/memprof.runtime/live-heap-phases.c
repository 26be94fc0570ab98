/* The live heap over time, in phases whose every number is known:
   1000 small blocks live throughout; 100 x 1 MiB live together, then
   freed (the process's peak); then 30 x 1 MiB live together, 10 of them
   never freed.  The second phase's blocks were never live at the peak
   although all 30 were live together later (DHAT 3.19 reports mb 0 for
   such a site).  Also read by memprof.tools/viewers.exp.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include <stdlib.h>

#define MiB (1024 * 1024)

__attribute__ ((noinline)) static void *
small_block (void)
{
  return malloc (48);
}

__attribute__ ((noinline)) static void *
phase_one_block (void)
{
  return malloc (MiB);
}

__attribute__ ((noinline)) static void *
phase_two_block (void)
{
  return malloc (MiB);
}

static void *small[1000], *one[100], *two[30];

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    small[i] = small_block ();
  for (int i = 0; i < 100; i++)
    one[i] = phase_one_block ();
  for (int i = 0; i < 100; i++)
    free (one[i]);
  for (int i = 0; i < 30; i++)
    two[i] = phase_two_block ();
  for (int i = 10; i < 30; i++)
    free (two[i]);
  return 0;
}

/* { dg-final { memprof-record fn=phase_one_block<main alloc_count==100 bytes_at_peak==104857600 blocks_at_peak==100 max_live_bytes==104857600 max_live_blocks==100 bytes_at_exit==0 blocks_at_exit==0 } } */
/* { dg-final { memprof-record fn=phase_two_block<main alloc_count==30 bytes_at_peak==0 blocks_at_peak==0 max_live_bytes==31457280 max_live_blocks==30 bytes_at_exit==10485760 blocks_at_exit==10 } } */
/* { dg-final { memprof-record fn=small_block<main alloc_count==1000 bytes_at_peak==48000 blocks_at_peak==1000 max_live_bytes==48000 max_live_blocks==1000 bytes_at_exit==48000 blocks_at_exit==1000 } } */
/* { dg-final { memprof-dump-scan {^Peak: 104,905,600 bytes live in 1,100 blocks, [0-9,]+ ms after the start$} } } */
