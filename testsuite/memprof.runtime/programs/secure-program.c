/* A program for secure-profiles.exp, run setuid: one allocation.  */
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
  char *p = malloc (100);
  p[0] = 1;
  printf ("secure-program: %d\n", p[0]);
  free (p);
  return 0;
}
