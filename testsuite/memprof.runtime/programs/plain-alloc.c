/* Allocates, writes, reads and frees 4 blocks of 100 bytes in
   plain_site; built without -fheapprof by uninstrumented.exp.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) static char *
plain_site (void)
{
  return malloc (100);
}

int
main (void)
{
  long sum = 0;
  for (int i = 0; i < 4; i++)
    {
      char *volatile p = plain_site ();
      memset (p, i, 100);
      sum += ((volatile char *) p)[99];
      free (p);
    }
  return sum == 6 ? 0 : 1;
}
