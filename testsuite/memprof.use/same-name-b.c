/* See same-name-a.c: this file's make () never runs.  */
#include <stdlib.h>

static char *__attribute__ ((noinline))
make (int n)
{
  char *p = malloc (64 + n); /* never executed */
  p[0] = (char) n;
  return p;
}

char *
make_b (int n)
{
  return make (n);
}
