/* A header before its payload (duktape's duk_hstring, 95% of its
   accesses in the string bytes past the struct): its fields are cold or
   not by the accesses to the struct's own bytes, not by all of the
   block's.  len, written and read once per object, is hot beside hash,
   never touched; it used to read cold beside the 4,000 payload bytes.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdlib.h>

struct str
{
  long len;
  long hash;
  char data[];
};

__attribute__ ((noinline)) static struct str *
new_str (size_t n)
{
  struct str *s = malloc (sizeof (struct str) + n);
  s->len = (long) n;
  for (size_t i = 0; i < n; i++)
    s->data[i] = (char) i;
  return s;
}

int
main (void)
{
  long sum = 0;
  for (int k = 0; k < 4; k++)
    {
      struct str *s = new_str (4000);
      sum += s->len;
      free (s);
    }
  return sum == 16000 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^ +0 +8 +8 +[0-9.]+%  len$} } } */
/* { dg-final { memprof-fields-scan {^ +8 +8 +0 +0\.0%  hash  \[cold\]$} } } */
