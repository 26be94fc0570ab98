/* Recursion: an unbalanced binary search tree built and torn down by
   recursive insert and erase, each with two recursive call sites (left
   and right).  Every node's stack is a different path of left/right
   calls, so a profiler that keeps whole stacks sees one context per node
   unless it folds the recursion.  At scale 100: 400,000 32-byte nodes
   inserted at random keys (depth about 2 ln n, some 45 levels), then
   erased in another random order while a quarter as many are re-inserted
   and erased again.  */

#include "bench-common.h"

struct node
{
  uint64_t key;
  uint64_t value;
  struct node *left, *right;
};

static struct node *
insert (struct node *t, uint64_t key, int *added)
{
  if (!t)
    {
      struct node *n = malloc (sizeof *n);
      n->key = key;
      n->value = key ^ 0xabcdef;
      n->left = n->right = NULL;
      *added = 1;
      return n;
    }
  if (key < t->key)
    t->left = insert (t->left, key, added);
  else if (key > t->key)
    t->right = insert (t->right, key, added);
  else
    t->value += 1;
  return t;
}

/* Detach the smallest node of non-empty T into *MIN.  */
static struct node *
take_min (struct node *t, struct node **min)
{
  if (!t->left)
    {
      *min = t;
      return t->right;
    }
  t->left = take_min (t->left, min);
  return t;
}

static struct node *
erase (struct node *t, uint64_t key, uint64_t *sum)
{
  if (!t)
    return NULL;
  if (key < t->key)
    t->left = erase (t->left, key, sum);
  else if (key > t->key)
    t->right = erase (t->right, key, sum);
  else
    {
      struct node *rest;
      *sum += t->value;
      if (!t->left)
	rest = t->right;
      else if (!t->right)
	rest = t->left;
      else
	{
	  struct node *m;
	  struct node *right = take_min (t->right, &m);
	  m->left = t->left;
	  m->right = right;
	  rest = m;
	}
      free (t);
      return rest;
    }
  return t;
}

static uint64_t
key_of (uint64_t i)
{
  /* A bijection of i: distinct keys in a scattered order.  */
  return (i * UINT64_C (0x9e3779b97f4a7c15)) ^ (i >> 7);
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long n = 4000 * scale;
  uint64_t rng = 0x7ee5;
  uint64_t sum = 0, count = 0;
  struct node *root = NULL;
  long *order = malloc (n * sizeof *order);
  for (long i = 0; i < n; i++)
    order[i] = i;
  /* Insert in one shuffled order ...  */
  for (long i = n - 1; i > 0; i--)
    {
      long j = (long) (bench_rand (&rng) % (uint64_t) (i + 1));
      long t = order[i]; order[i] = order[j]; order[j] = t;
    }
  for (long i = 0; i < n; i++)
    {
      int added = 0;
      root = insert (root, key_of (order[i]), &added);
      count += added;
    }
  /* ... erase in another, re-inserting some as we go.  */
  for (long i = n - 1; i > 0; i--)
    {
      long j = (long) (bench_rand (&rng) % (uint64_t) (i + 1));
      long t = order[i]; order[i] = order[j]; order[j] = t;
    }
  for (long i = 0; i < n; i++)
    {
      root = erase (root, key_of (order[i]), &sum);
      if ((i & 3) == 0)
	{
	  int added = 0;
	  uint64_t k = key_of (n + i);
	  root = insert (root, k, &added);
	  count += added;
	  root = erase (root, k, &sum);
	}
    }
  free (order);
  printf ("rec_tree %llu %016llx %s\n", (unsigned long long) count,
	  (unsigned long long) sum, root ? "left-over" : "empty");
  return 0;
}
