/* Small-object churn: a treap (randomised balanced search tree) under a
   random mix of inserts and deletes, plus a FIFO linked list of pending
   events that is filled and drained in bursts.  Stands for programs whose
   heap is millions of short- and medium-lived 32..64-byte nodes.  */

#include "bench-common.h"

struct tree_node
{
  uint64_t key;
  uint64_t priority;
  uint64_t value;
  struct tree_node *left, *right;
};

struct event
{
  struct event *next;
  uint64_t payload[3];
};

static struct tree_node *
new_tree_node (uint64_t key, uint64_t priority)
{
  struct tree_node *n = malloc (sizeof *n);
  n->key = key;
  n->priority = priority;
  n->value = key * 3 + 1;
  n->left = n->right = NULL;
  return n;
}

/* Split T into keys < KEY (*L) and keys >= KEY (*R).  */
static void
split (struct tree_node *t, uint64_t key, struct tree_node **l,
       struct tree_node **r)
{
  while (t)
    {
      if (t->key < key)
	{
	  *l = t;
	  l = &t->right;
	  t = t->right;
	}
      else
	{
	  *r = t;
	  r = &t->left;
	  t = t->left;
	}
    }
  *l = *r = NULL;
}

static struct tree_node *
merge (struct tree_node *a, struct tree_node *b)
{
  struct tree_node *root = NULL, **link = &root;
  while (a && b)
    {
      if (a->priority > b->priority)
	{
	  *link = a;
	  link = &a->right;
	  a = a->right;
	}
      else
	{
	  *link = b;
	  link = &b->left;
	  b = b->left;
	}
    }
  *link = a ? a : b;
  return root;
}

static struct tree_node *
tree_find (struct tree_node *t, uint64_t key)
{
  while (t && t->key != key)
    t = key < t->key ? t->left : t->right;
  return t;
}

static struct tree_node *
tree_insert (struct tree_node *t, struct tree_node *n)
{
  struct tree_node *l, *r;
  split (t, n->key, &l, &r);
  return merge (merge (l, n), r);
}

/* Remove KEY if present; returns the new root, frees the node.  */
static struct tree_node *
tree_erase (struct tree_node *t, uint64_t key, int *erased)
{
  struct tree_node **link = &t;
  while (*link && (*link)->key != key)
    link = key < (*link)->key ? &(*link)->left : &(*link)->right;
  if (!*link)
    return t;
  struct tree_node *victim = *link;
  *link = merge (victim->left, victim->right);
  free (victim);
  *erased = 1;
  return t;
}

static uint64_t
tree_free_all (struct tree_node *t)
{
  uint64_t h = 0;
  while (t)
    {
      /* Rotate the left subtree up so the walk needs no stack.  */
      if (t->left)
	{
	  struct tree_node *l = t->left;
	  t->left = l->right;
	  l->right = t;
	  t = l;
	  continue;
	}
      struct tree_node *next = t->right;
      h = bench_mix (h, t->value);
      free (t);
      t = next;
    }
  return h;
}

static struct event *
new_event (uint64_t seed)
{
  struct event *e = malloc (sizeof *e);
  e->next = NULL;
  e->payload[0] = seed;
  e->payload[1] = seed ^ 0x5555;
  e->payload[2] = seed * 7;
  return e;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long rounds = 20000 * scale;
  uint64_t rng = 42, h = 0;
  struct tree_node *root = NULL;
  struct event *head = NULL, **tail = &head;
  long inserted = 0, erased_count = 0;

  for (long i = 0; i < rounds; i++)
    {
      uint64_t key = bench_rand (&rng) % 65536;
      struct tree_node *found = tree_find (root, key);
      if (found)
	{
	  int erased = 0;
	  h = bench_mix (h, found->value);
	  root = tree_erase (root, key, &erased);
	  erased_count += erased;
	}
      else
	{
	  root = tree_insert (root, new_tree_node (key, bench_rand (&rng)));
	  inserted++;
	}
      /* Events queue up for a while, then a burst drains them.  */
      *tail = new_event (key);
      tail = &(*tail)->next;
      if ((i & 255) == 255)
	{
	  while (head)
	    {
	      struct event *e = head;
	      head = e->next;
	      h = bench_mix (h, e->payload[0] + e->payload[1] + e->payload[2]);
	      free (e);
	    }
	  tail = &head;
	}
    }
  while (head)
    {
      struct event *e = head;
      head = e->next;
      free (e);
    }
  h = bench_mix (h, tree_free_all (root));
  printf ("churn_tree inserted=%ld erased=%ld checksum=%016llx\n", inserted,
	  erased_count, (unsigned long long) h);
  return 0;
}
