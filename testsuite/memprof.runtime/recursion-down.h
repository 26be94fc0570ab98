/* down (depth, size): direct recursion, DEPTH calls deep, one block of
   SIZE allocated and freed at the bottom.  Shared by the recursion
   tests (recursion-fold.c, recursion-unfolded.c).  */
#include <stdlib.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

__attribute__ ((noinline)) static void
down (int depth, size_t size)
{
  if (depth > 1)
    down (depth - 1, size);
  else
    {
      char *p = malloc (size);
      keep (p);
      free (p);
    }
}
