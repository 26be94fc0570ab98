/* Memory allocated "just in case": a 1 MiB scratch buffer of which only
   the first byte is ever written, and a lookup table that is calloc'ed
   and never touched at all.  The report flags the first "low
   utilisation" and the second "never accessed", next to the small array
   that does all the work.  */

#include <stdio.h>
#include <stdlib.h>

enum { SCRATCH_BYTES = 1 << 20, TABLE_ENTRIES = 32768, WORK_ITEMS = 1024,
       ROUNDS = 200 };

/* Global, so the compiler cannot drop the allocations as unused.  */
char *scratch_buffer;
long *lookup_table;

static void
reserve_scratch (void)
{
  scratch_buffer = malloc (SCRATCH_BYTES);
  if (!scratch_buffer)
    exit (1);
  scratch_buffer[0] = '\0';     /* "empty": the rest is never touched */
}

static void
make_lookup_table (void)
{
  lookup_table = calloc (TABLE_ENTRIES, sizeof *lookup_table);
  if (!lookup_table)
    exit (1);
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
  reserve_scratch ();
  make_lookup_table ();
  long *work = make_work ();
  long sum = 0;
  for (int round = 0; round < ROUNDS; round++)
    for (int i = 0; i < WORK_ITEMS; i++)
      sum += work[i] ^ round;
  printf ("never-read: checksum %ld\n", sum);
  free (work);
  free (lookup_table);
  free (scratch_buffer);
  return 0;
}
