/* A third-party library's code, built without -fheapprof and without
   debug info (as a distribution's static library is): it allocates a
   buffer and uses it itself.  For uninstrumented.exp (third-party-main.c calls it).  */
#include <stdlib.h>

long
third_work (void)
{
  volatile char *b = malloc (32768);
  long sum = 0;
  for (int r = 0; r < 4; r++)
    for (int i = 0; i < 32768; i += 64)
      {
        b[i] = (char) (i + r);
        sum += b[i];
      }
  free ((void *) b);
  return sum;
}
