/* A recursive insert of N (argv[1]) pseudo-random keys into a binary
   search tree: one block per node, allocated at the bottom of a
   recursion with two recursive call sites (left and right), so without
   folding every node has a call path of its own.  */
#include <stdlib.h>

struct node
{
  unsigned long key;
  struct node *left, *right;
};

__attribute__ ((noinline)) static struct node *
insert (struct node *t, unsigned long key)
{
  if (!t)
    {
      struct node *n = malloc (sizeof *n);
      n->key = key;
      n->left = n->right = NULL;
      return n;
    }
  if (key < t->key)
    t->left = insert (t->left, key);
  else
    t->right = insert (t->right, key);
  return t;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 0;
  unsigned long x = 88172645463325252UL;
  struct node *root = NULL;
  for (long i = 0; i < n; i++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      root = insert (root, x);
    }
  return root == NULL && n > 0;
}
