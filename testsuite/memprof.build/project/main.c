/* The executable of the two-file project: one block of 64 ints,
   allocated in main and filled by the library: one record, fn=main,
   alloc_count 1, total_size 256, total_access_count 128.  */
#include <stdlib.h>

extern int fill (int *p, int n);
volatile int length = 64;

int
main (void)
{
  int *p = malloc (64 * sizeof (int));
  int sum = fill (p, length);
  free (p);
  return sum != 64 * 63 / 2;
}
