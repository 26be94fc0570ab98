/* With same-name-b.c: a static function of one name in two files (the
   debug info names both "make" without their file), at the same line
   relative to its start; only this file's runs.  And a call the
   training run never makes, beside one it makes.  use.exp checks that
   the profile's sites apply to this file's call only, and that neither
   the other file nor the unexecuted call is reported as stale.  */
#include <stdio.h>
#include <stdlib.h>

char *make_b (int n);

static char *__attribute__ ((noinline))
make (int n)
{
  char *p = malloc (64 + n); /* executed */
  if (n > 1000)
    p = realloc (p, 4096 + n); /* never executed in training */
  p[0] = (char) n;
  return p;
}

int
main (int argc, char **argv)
{
  char *keep[32];
  for (int i = 0; i < 32; i++)
    keep[i] = make (i * argc);
  if (argc > 5)
    free (make_b (argc));
  int sum = 0;
  for (int i = 0; i < 32; i++)
    {
      sum += keep[i][0];
      free (keep[i]);
    }
  printf ("sum %d %s\n", sum, argv[0] ? "" : "?");
  return 0;
}
