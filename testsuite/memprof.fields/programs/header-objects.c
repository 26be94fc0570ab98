/* Objects behind a common header (Lua's GCObject, expat's NAMED):
   newobj allocates a block of the size its caller asks for and types it
   as the 16-byte header; main asks for 32-byte tables, 50 of them.  The
   size is a parameter, not n * sizeof (struct hdr), so the plugin
   records the type as each block's header: one object per block, its
   other 16 bytes past the type's end, where 32 = 2 x 16 used to read as
   arrays of two headers.  newarray's malloc (n * sizeof *v) is an array
   and stays folded.  grow doubles a buffer behind its 8-byte header
   through a realloc wrapper whose size parameter is an int (mujs's
   js_realloc): its 4,104-byte block, 57 times the 72-byte struct buf,
   is still one header with bytes after it.  newpage's struct page ends
   in a flexible array: its block, sizeof (struct page) + 4096 bytes, is
   a constant 129 times the page's 32, and still one page (mruby's heap
   pages read as arrays of 1,025); so is callocpage's, through a
   calloc-like wrapper whose two sizes name no block size (mruby's
   mrb_calloc).  For fields-prefix.exp.  */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct hdr { struct hdr *next; unsigned char tt; };
struct table { struct hdr *next; unsigned char tt; long a; long b; };

static struct hdr *all;

struct buf { int n, m; char s[64]; };

struct page { struct page *next; long used, size; void *last; char data[]; };

__attribute__ ((noinline)) static void *
xrealloc_int (void *p, int size)
{
  return realloc (p, size);
}

__attribute__ ((noinline)) static struct buf *
grow (struct buf *b)
{
  return xrealloc_int (b, (b->m *= 2) + (int) offsetof (struct buf, s));
}

__attribute__ ((noinline)) static struct hdr *
newobj (size_t sz, int tt)
{
  struct hdr *o = malloc (sz);
  o->tt = (unsigned char) tt;
  o->next = all;
  all = o;
  return o;
}

__attribute__ ((noinline)) static struct page *
newpage (void)
{
  struct page *p = malloc (sizeof (struct page) + 4096);
  p->next = 0;
  p->used = 0;
  p->size = 4096;
  return p;
}

__attribute__ ((noinline)) static void *
xcalloc (size_t n, size_t size)
{
  return calloc (n, size);
}

__attribute__ ((noinline)) static struct page *
callocpage (void)
{
  struct page *p = xcalloc (1, sizeof (struct page) + 4096);
  p->size = 4096;
  return p;
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
  struct buf *b = malloc (offsetof (struct buf, s) + 2048);
  b->n = 0;
  b->m = 2048;
  for (int i = 0; i < 3000; i++)
    {
      if (b->n == b->m)
        b = grow (b);
      b->s[b->n++] = (char) i;
    }
  s += b->s[2999] != (char) 2999;
  free (b);
  struct page *pg = newpage ();
  for (int i = 0; i < 100; i++)
    pg->data[pg->used++] = (char) i;
  s += pg->data[99] != 99;
  free (pg);
  pg = callocpage ();
  for (int i = 0; i < 100; i++)
    pg->data[pg->used++] = (char) i;
  s += pg->data[99] != 99;
  free (pg);
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
