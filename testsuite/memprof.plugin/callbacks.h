/* Access kinds for the callback-mode tests: with
   -fplugin-arg-memprof-callbacks every counted load calls __memprof_load
   and every counted store __memprof_store, so the assembly shows exactly
   how each access was classified.  */

struct node { struct node *next; int key; int value[4]; };
struct node global_node;

/* Loads: n->next, n->key, n->value[1].  Stores: n->value[0], n->key.  */
int
walk (struct node *n)
{
  struct node *next = n->next;
  n->value[0] = n->key + n->value[1];
  n->key = 1;
  return next != 0;
}

/* Aggregate copy: one load, one store.  Named global: nothing.  */
void
copy (struct node *dst, const struct node *src)
{
  *dst = *src;
  global_node.key++;
}
