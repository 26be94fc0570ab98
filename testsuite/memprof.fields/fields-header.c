/* Lua-style objects: every object is allocated by one function whose
   type is a 16-byte common header (struct gc_object), the blocks
   larger than it (56 bytes: the header then the object's own fields).
   A C struct has no destructor, so no C++ array cookie is guessed from
   56 = 8 + 3 * 16: the header's fields are the first 16 bytes, the rest
   lies past the type's end.  Each object's next is written once, read
   in 10 walks of the list and once more as it is freed: 1,200.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct gc_object
{
  struct gc_object *next;
  unsigned char tt, marked;
};

struct table
{
  struct gc_object *next;
  unsigned char tt, marked;
  long body[5];
};

struct gc_object *
new_object (size_t size)
{
  return malloc (size);
}

int
main (void)
{
  struct gc_object *all = 0;
  for (int i = 0; i < 100; i++)
    {
      struct table *t = (struct table *) new_object (sizeof (struct table));
      t->next = (struct table *) all ? (struct gc_object *) all : 0;
      t->tt = 5;
      for (int k = 0; k < 5; k++)
        t->body[k] = k;
      all = (struct gc_object *) t;
    }
  int n = 0;
  for (int r = 0; r < 10; r++)
    for (struct gc_object *o = all; o; o = o->next)
      n++;
  while (all)
    {
      struct gc_object *next = all->next;
      free (all);
      all = next;
    }
  return n == 1000 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan-not {array cookie} } } */
/* { dg-final { memprof-fields-scan {^objects: +100 in 100 blocks$} } } */
/* { dg-final { memprof-record fn=new_object<main type.size==16 fields(next).accesses==1200 } } */
