/* For histogram-merge.exp: run with N, one block of 4 longs whose slot
   I is written N * (I + 1) times (slot 3: never).  */
#include <stdlib.h>

__attribute__ ((noinline, noclone)) volatile long *
make_quad (void)
{
  return malloc (4 * sizeof (long));
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1;
  volatile long *p = make_quad ();
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n * (i + 1); k++)
      p[i] = k;
  free ((void *) p);
  return 0;
}
