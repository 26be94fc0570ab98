/* hot_cold_mix: the profile-use benchmark's workload (bench/lib/
   profile_use.py).  Hot 32-byte list nodes, walked many times in a
   shuffled order, are allocated interleaved with cold 32-byte records
   (one per node, written once, read once at exit): the same size class,
   so a plain allocator puts a cold record between every two hot nodes
   and the walk drags twice the cache lines and pages it needs.  Built
   with -fheapprof-use against jemalloc, the cold records go to an arena
   of their own and the hot nodes lie packed.  Scale 100: 524,288 nodes,
   25 walks.  */

#include "bench-common.h"

#include <string.h>

#define NODES (1u << 19)

struct node
{
  struct node *next;
  uint64_t key, val, hits;
};

/* The cold site: an audit record kept "just in case".  */
static uint64_t *__attribute__ ((noinline))
make_record (uint64_t id)
{
  uint64_t *r = malloc (4 * sizeof *r);
  r[0] = id;
  r[1] = id * 3;
  r[2] = ~id;
  r[3] = id ^ 0x55;
  return r;
}

/* The hot site.  */
static struct node *__attribute__ ((noinline))
make_node (uint64_t key)
{
  struct node *n = malloc (sizeof *n);
  n->next = NULL;
  n->key = key;
  n->val = key & 0xff;
  n->hits = 0;
  return n;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long walks = scale / 4 > 0 ? scale / 4 : 1;
  uint64_t seed = 0x1234567;
  struct node **nodes = malloc (NODES * sizeof *nodes);
  uint64_t **records = malloc (NODES * sizeof *records);
  for (uint32_t i = 0; i < NODES; i++)
    {
      nodes[i] = make_node (bench_rand (&seed));
      records[i] = make_record (i);
    }
  /* Link the nodes in a shuffled order: the walk is a pointer chase.  */
  for (uint32_t i = NODES - 1; i > 0; i--)
    {
      uint32_t j = bench_rand (&seed) % (i + 1);
      struct node *t = nodes[i];
      nodes[i] = nodes[j];
      nodes[j] = t;
    }
  for (uint32_t i = 0; i + 1 < NODES; i++)
    nodes[i]->next = nodes[i + 1];
  struct node *head = nodes[0];
  free (nodes);

  uint64_t sum = 0;
  for (long w = 0; w < walks; w++)
    for (struct node *n = head; n; n = n->next)
      {
        n->val = n->val * 31 + n->key;
        n->hits += n->val & 1;
        sum += n->val;
      }
  uint64_t h = sum;
  for (struct node *n = head; n;)
    {
      struct node *next = n->next;
      h = bench_mix (h, n->hits);
      free (n);
      n = next;
    }
  for (uint32_t i = 0; i < NODES; i++)
    {
      h = bench_mix (h, records[i][3]);
      free (records[i]);
    }
  free (records);
  printf ("%016llx\n", (unsigned long long) h);
  return 0;
}
