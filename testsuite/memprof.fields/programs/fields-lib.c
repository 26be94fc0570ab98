/* A shared library with a type of its own, for fields-modules.exp: its
   layout comes from the library's debug info, not the executable's.  */
#include <stdlib.h>

struct libobj
{
  long counter;
  char blob[120];
};

struct libobj *
lib_new (void)
{
  struct libobj *o = malloc (sizeof *o);
  o->counter = 0;
  return o;
}

void
lib_bump (struct libobj *o, int n)
{
  for (int i = 0; i < n; i++)
    o->counter++;
}

void
lib_free (struct libobj *o)
{
  free (o);
}
