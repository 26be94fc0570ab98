/* A union whose tail is never accessed while the rest is: its larger
   members are rare (gumbo's text nodes never touch bytes 72-127 of the
   node's 96-byte union, where elements keep their attributes), and the
   row says so: text nodes touch only v.t (bytes 8-23), so v's bytes
   24-87 read "never accessed"; element nodes touch v.e's whole array,
   and their row has no such note.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct node
{
  int type;
  union
  {
    struct { char *text; int len; } t;
    struct { long attrs[10]; } e;
  } v;
};

__attribute__ ((noinline)) static struct node *
new_text (void)
{
  struct node *n = malloc (sizeof *n);
  n->type = 1;
  n->v.t.text = 0;
  n->v.t.len = 3;
  return n;
}

__attribute__ ((noinline)) static struct node *
new_element (void)
{
  struct node *n = malloc (sizeof *n);
  n->type = 2;
  for (int i = 0; i < 10; i++)
    n->v.e.attrs[i] = i;
  return n;
}

int
main (void)
{
  long sum = 0;
  for (int i = 0; i < 100; i++)
    {
      struct node *n = new_text ();
      sum += n->type + n->v.t.len;
      free (n);
    }
  for (int i = 0; i < 10; i++)
    {
      struct node *n = new_element ();
      sum += n->v.e.attrs[9];
      free (n);
    }
  return sum == 490 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^ +8 +80 +[0-9]+ +[0-9.]+%  v  \[union of t \| e; bytes 24-87 never accessed\]$} } } */
/* { dg-final { memprof-fields-scan {^ +8 +80 +[0-9]+ +[0-9.]+%  v  \[union of t \| e\]$} } } */
