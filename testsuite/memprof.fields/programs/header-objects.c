/* Objects behind a common header (Lua's GCObject, expat's NAMED):
   newobj allocates a block of the size its caller asks for and types it
   as the 16-byte header; main asks for 32-byte tables, 50 of them.  The
   size is a parameter, not n * sizeof (struct hdr), so the plugin
   records the type as each block's header: one object per block, its
   other 16 bytes past the type's end, where 32 = 2 x 16 used to read as
   arrays of two headers.  newarray's malloc (n * sizeof *v) is an array
   and stays folded.  For fields-prefix.exp.  */
#include <stdlib.h>
#include <string.h>

struct hdr { struct hdr *next; unsigned char tt; };
struct table { struct hdr *next; unsigned char tt; long a; long b; };

static struct hdr *all;

__attribute__ ((noinline)) static struct hdr *
newobj (size_t sz, int tt)
{
  struct hdr *o = malloc (sz);
  o->tt = (unsigned char) tt;
  o->next = all;
  all = o;
  return o;
}

__attribute__ ((noinline)) static struct hdr *
newarray (int n)
{
  struct hdr *v = malloc (n * sizeof *v);
  for (int i = 0; i < n; i++)
    {
      v[i].next = 0;
      v[i].tt = 1;
    }
  return v;
}

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 50; i++)
    {
      struct table *t = (struct table *) newobj (sizeof (struct table), 5);
      t->a = i;
      t->b = 2 * i;
    }
  for (struct hdr *o = all; o; o = o->next)
    s += ((struct table *) o)->a;
  struct hdr *v = newarray (8);
  s += v[3].tt;
  free (v);
  while (all)
    {
      struct hdr *n = all->next;
      free (all);
      all = n;
    }
  return s == 1226 ? 0 : 1;
}
