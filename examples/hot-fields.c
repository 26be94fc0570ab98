/* Hot and cold fields, field by field (make demo profiles it with
   -fheapprof-histogram and shows memprof-dump --fields): a chained hash
   table of 128-byte entries whose lookups read only the key and the
   chain link; the hit counter is warm; the name and the statistics
   array are written once when an entry is made and never read.  The
   field report names them cold and says how many bytes of cache lines
   moving them out of the entry saves.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry
{
  unsigned long key;            /* hot: compared on every probe */
  struct entry *next;           /* hot: followed on every probe */
  char name[48];                /* cold: written once */
  unsigned long stats[7];       /* cold: written once */
  unsigned long hits;           /* warm: once per successful lookup */
};

enum { BUCKETS = 1024, ENTRIES = 4096, LOOKUPS = 1000000 };

static struct entry *table[BUCKETS];

static struct entry *
make_entry (unsigned long key)
{
  struct entry *e = malloc (sizeof *e);
  if (!e)
    exit (1);
  e->key = key;
  snprintf (e->name, sizeof e->name, "entry-%lu", key);
  memset (e->stats, 0, sizeof e->stats);
  e->hits = 0;
  e->next = table[key % BUCKETS];
  table[key % BUCKETS] = e;
  return e;
}

static struct entry *
lookup (unsigned long key)
{
  for (struct entry *e = table[key % BUCKETS]; e; e = e->next)
    if (e->key == key)
      return e;
  return NULL;
}

int
main (void)
{
  for (unsigned long i = 0; i < ENTRIES; i++)
    make_entry (i * 7);
  unsigned long found = 0, x = 12345;
  for (int i = 0; i < LOOKUPS; i++)
    {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      struct entry *e = lookup ((x >> 33) % (ENTRIES * 7));
      if (e)
        {
          e->hits++;
          found++;
        }
    }
  printf ("hot-fields: %lu of %d lookups found\n", found, LOOKUPS);
  return 0;
}
