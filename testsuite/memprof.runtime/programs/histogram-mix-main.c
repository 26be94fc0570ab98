/* With histogram-mix-part.c: one program of two units, each compiled in
   its own mode by histogram-modes.exp.  */
#include <stdlib.h>

void touch (long *p);

int
main (void)
{
  long *p = malloc (4 * sizeof (long));
  p[0] = 1;
  touch (p);
  long s = p[0] + p[3];
  free (p);
  return s == 3 ? 0 : 1;
}
