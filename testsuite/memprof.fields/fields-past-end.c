/* A header whose own fields are never accessed, every access in the
   bytes after it (mujs's js_String and its old-style char p[1], the
   string's bytes past the struct): no field is hot, and the suggestion
   says where the accesses went instead of "the hot fields take 0 bytes
   of cache lines per object".  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stddef.h>
#include <stdlib.h>

struct blob
{
  long unused;
  char p[1];
};

__attribute__ ((noinline)) static struct blob *
new_blob (size_t n)
{
  return malloc (offsetof (struct blob, p) + n);
}

int
main (void)
{
  long sum = 0;
  for (int k = 0; k < 4; k++)
    {
      struct blob *b = new_blob (1000);
      for (int i = 16; i < 1000; i++)
        b->p[i] = (char) i;
      sum += b->p[999];
      free (b);
    }
  return sum == 4 * (char) 999 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^suggestion: none: no field of blob is hot; 100\.0% of the accesses are past its end$} } } */
