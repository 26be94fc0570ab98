/* Allocates and touches heap blocks (instrumented accesses through the
   shadow) and says so.  Run by shadow-reservation.exp with and without
   an address-space limit.  */
#include <stdio.h>
#include <stdlib.h>

static char *volatile keep;

int
main (void)
{
  long sum = 0;
  for (int i = 0; i < 100; i++)
    {
      char *p = malloc (100 + i);
      keep = p;
      for (int j = 0; j < 100; j++)
	p[j] = (char) (i + j);
      for (int j = 0; j < 100; j++)
	sum += p[j];
      free (p);
    }
  printf ("reservation-program: ran, sum %ld\n", sum);
  return 0;
}
