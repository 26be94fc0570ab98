/* One site and context: 100,000 blocks of 400 bytes, all live at once
   (sampling-calibration.exp).  Sampled, the context's totals are
   calibrated to the site's exact tally, and its live-heap figures with
   the same factors: never more blocks live than it allocated.  */

#include <stdlib.h>

#define BLOCKS 100000

static void *blocks[BLOCKS];

__attribute__ ((noinline)) static void *
live_site (void)
{
  return malloc (400);
}

int
main (void)
{
  for (int i = 0; i < BLOCKS; i++)
    {
      blocks[i] = live_site ();
      ((char *) blocks[i])[0] = 1;
    }
  for (int i = 0; i < BLOCKS; i++)
    free (blocks[i]);
  return 0;
}
