/* An allocation wrapper that ends in "return malloc (n)" would be a tail
   call at -O2 and vanish from the recorded stack; the specs keep sibling
   calls off (unless -foptimize-sibling-calls is given) so frame 0 is the
   wrapper and frame 1 the function that called it.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdlib.h>

__attribute__ ((noinline)) void *
xmalloc (size_t n)
{
  return malloc (n);
}

__attribute__ ((noinline)) char *
make_buffer (void)
{
  char *p = xmalloc (100);
  p[0] = 1;
  return p;
}

int
main (void)
{
  char *p = make_buffer ();
  int r = p[0] - 1;
  free (p);
  return r;
}

/* { dg-final { memprof-record fn=xmalloc<make_buffer alloc_count==1 total_size==100 } } */
