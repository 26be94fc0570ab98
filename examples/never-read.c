/* A buffer that is allocated, cleared and never read: the report shows a
   large allocation with almost no accesses per byte, next to a small
   buffer that does all the work.

   Build and profile (from a build tree):
     gcc -specs=memprof.specs -fheapprof=prof -O2 -g never-read.c -o never-read
     ./never-read && memprof-merge -o nr.memprofdata prof/never-read.* && memprof-dump nr.memprofdata  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SCRATCH_BYTES = 1 << 20, WORK_ITEMS = 1024, ROUNDS = 200 };

/* Reserved "just in case" and never used: only the memset touches it.  */
static char *
reserve_scratch (void)
{
  char *scratch = malloc (SCRATCH_BYTES);
  if (scratch)
    memset (scratch, 0, SCRATCH_BYTES);
  return scratch;
}

static long *
make_work (void)
{
  long *work = malloc (WORK_ITEMS * sizeof *work);
  if (!work)
    exit (1);
  for (int i = 0; i < WORK_ITEMS; i++)
    work[i] = i;
  return work;
}

int
main (void)
{
  char *scratch = reserve_scratch ();
  long *work = make_work ();
  long sum = 0;
  for (int round = 0; round < ROUNDS; round++)
    for (int i = 0; i < WORK_ITEMS; i++)
      sum += work[i] ^ round;
  printf ("never-read: checksum %ld\n", sum);
  free (work);
  free (scratch);
  return 0;
}
