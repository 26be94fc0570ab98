/* Hot and cold fields: every record is 128 bytes, but the loop reads only
   the 8-byte key at its start.  The report shows the records' allocation
   with half of its 64-byte granules never touched (calloc's zeroing is
   not counted): moving the cold fields out would halve the memory the
   loop streams.  */

#include <stdio.h>
#include <stdlib.h>

struct record
{
  long key;                     /* hot: read on every lookup */
  char name[56];                /* cold, but shares the key's granule */
  char description[64];         /* cold: never touched after calloc */
};

enum { RECORDS = 4096, LOOKUPS = 100 };

static struct record *
load_records (void)
{
  struct record *records = calloc (RECORDS, sizeof *records);
  if (!records)
    exit (1);
  for (int i = 0; i < RECORDS; i++)
    records[i].key = (i * 2654435761u) % 1000;
  return records;
}

int
main (void)
{
  struct record *records = load_records ();
  long hits = 0;
  for (int round = 0; round < LOOKUPS; round++)
    for (int i = 0; i < RECORDS; i++)
      hits += records[i].key == round;
  printf ("hot-cold: %ld hits\n", hits);
  free (records);
  return 0;
}
