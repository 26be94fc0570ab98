/* A chained hash table of strings: words are generated, looked up,
   counted, inserted (entry node + strdup'd key), and every few rounds a
   share of them is deleted; the bucket array grows by rehashing into a
   fresh calloc'd array.  Stands for symbol tables, word counters and
   caches keyed by strings.  */

#include <string.h>
#include "bench-common.h"

struct entry
{
  struct entry *next;
  char *key;
  uint64_t hash;
  long count;
};

struct table
{
  struct entry **buckets;
  size_t nbuckets, nentries;
};

static uint64_t
hash_string (const char *s)
{
  uint64_t h = UINT64_C (1469598103934665603);
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * UINT64_C (1099511628211);
  return h;
}

static void
table_grow (struct table *t)
{
  size_t n = t->nbuckets ? t->nbuckets * 2 : 1024;
  struct entry **b = calloc (n, sizeof *b);
  for (size_t i = 0; i < t->nbuckets; i++)
    for (struct entry *e = t->buckets[i], *next; e; e = next)
      {
	next = e->next;
	e->next = b[e->hash & (n - 1)];
	b[e->hash & (n - 1)] = e;
      }
  free (t->buckets);
  t->buckets = b;
  t->nbuckets = n;
}

static struct entry *
table_lookup_or_insert (struct table *t, const char *word)
{
  uint64_t h = hash_string (word);
  if (t->nbuckets)
    for (struct entry *e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->next)
      if (e->hash == h && strcmp (e->key, word) == 0)
	return e;
  if (t->nentries + 1 > t->nbuckets)
    table_grow (t);
  struct entry *e = malloc (sizeof *e);
  e->key = strdup (word);
  e->hash = h;
  e->count = 0;
  e->next = t->buckets[h & (t->nbuckets - 1)];
  t->buckets[h & (t->nbuckets - 1)] = e;
  t->nentries++;
  return e;
}

/* Delete every entry whose count is below LIMIT; returns how many.  */
static long
table_prune (struct table *t, long limit)
{
  long pruned = 0;
  for (size_t i = 0; i < t->nbuckets; i++)
    for (struct entry **link = &t->buckets[i]; *link;)
      {
	struct entry *e = *link;
	if (e->count < limit)
	  {
	    *link = e->next;
	    free (e->key);
	    free (e);
	    t->nentries--;
	    pruned++;
	  }
	else
	  link = &e->next;
      }
  return pruned;
}

static void
make_word (char *buf, uint64_t *rng)
{
  static const char letters[] = "etaoinshrdlcumwfgypbvkjxqz";
  uint64_t r = bench_rand (rng);
  /* Skewed lengths and letters, so some words repeat often.  */
  int len = 3 + (int) (r % 10);
  r = bench_rand (rng);
  for (int i = 0; i < len; i++)
    {
      buf[i] = letters[(r & 7) + ((r >> 3) & 3) * ((r >> 5) & 3)];
      r >>= 7;
      if (r < 128)
	r = bench_rand (rng);
    }
  buf[len] = '\0';
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long words = 12000 * scale;
  struct table t = { NULL, 0, 0 };
  uint64_t rng = 7, h = 0;
  long pruned = 0;
  char word[32];

  for (long i = 0; i < words; i++)
    {
      make_word (word, &rng);
      struct entry *e = table_lookup_or_insert (&t, word);
      e->count++;
      if (i % 100000 == 99999)
	pruned += table_prune (&t, 2);
    }
  for (size_t i = 0; i < t.nbuckets; i++)
    for (struct entry *e = t.buckets[i]; e; e = e->next)
      h += bench_mix (e->hash, (uint64_t) e->count);
  long remaining = (long) t.nentries;
  pruned += table_prune (&t, 1L << 60);
  free (t.buckets);
  printf ("hash_strings remaining=%ld pruned=%ld checksum=%016llx\n",
	  remaining, pruned, (unsigned long long) h);
  return 0;
}
