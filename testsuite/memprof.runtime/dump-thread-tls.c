/* MEMPROF_OPTIONS=dump_signal starts the runtime's dump thread, whose
   TLS vector pthread_create allocates with calloc from _dl_init: the
   program never made that block, so no profile may show it, in a
   context (it did: 288 bytes under allocate_dtv and
   __pthread_create_2_1) or in the peak.  The program's one block is all
   there is.  */
/* { dg-do run } */
/* { dg-options "-O0" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "dump_signal=SIGUSR2" } */

#include <stdlib.h>

char *kept;

int
main (void)
{
  kept = malloc (100);
  kept[0] = 1;
  return 0;
}

/* { dg-final { memprof-record fn=main alloc_count==1 total_size==100 blocks_at_exit==1 } } */
/* { dg-final { memprof-dump-scan {^Peak: 100 bytes live in 1 block,} } } */
/* { dg-final { memprof-dump-scan {^Total: 100 bytes in 1 block from 1 allocation context,} } } */
/* { dg-final { memprof-dump-scan-not {allocate_dtv|pthread_create} } } */
