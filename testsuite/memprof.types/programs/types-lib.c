/* A shared library with its own type (lib_node, allocated in the
   library) and an allocation wrapper (lib_alloc) whose callers name
   the type.  */
#include <stdlib.h>

struct lib_node
{
  int id;
  struct lib_node *next;
  double weight[4];
};

__attribute__ ((noinline)) struct lib_node *
lib_make (int id)
{
  struct lib_node *n = malloc (sizeof *n);
  n->id = id;
  n->next = 0;
  return n;
}

__attribute__ ((noinline)) void *
lib_alloc (size_t n)
{
  void *p = malloc (n);
  if (!p)
    abort ();
  return p;
}
