/* Four allocation sites of known sizes and counts for the sampling mode
   (sampling.exp): every figure of the exact profile is known, so a
   sampled profile's estimates can be held to it.
     site_small   800,000 blocks of 32 bytes, 1 access each, freed at once
     site_medium   20,000 blocks of 1,000 bytes, 16 accesses each, freed
     site_large       500 blocks of 20,000 bytes, 1 access each, live at exit
     site_huge         50 blocks of 200,000 bytes (mapped on their own),
                       1 access each, freed at once
   Built -O0 so every access is counted as written.  */

#include <stdlib.h>

__attribute__ ((noinline)) static char *
site_small (void)
{
  return malloc (32);
}

__attribute__ ((noinline)) static char *
site_medium (void)
{
  return malloc (1000);
}

__attribute__ ((noinline)) static char *
site_large (void)
{
  return malloc (20000);
}

__attribute__ ((noinline)) static char *
site_huge (void)
{
  return malloc (200000);
}

static char *kept[500];

int
main (void)
{
  for (int i = 0; i < 800000; i++)
    {
      char *p = site_small ();
      p[0] = 1;
      free (p);
    }
  for (int i = 0; i < 20000; i++)
    {
      char *p = site_medium ();
      for (int k = 0; k < 1000; k += 64)
        p[k] = 1;
      free (p);
    }
  for (int i = 0; i < 500; i++)
    {
      kept[i] = site_large ();
      kept[i][0] = 1;
    }
  for (int i = 0; i < 50; i++)
    {
      char *p = site_huge ();
      p[0] = 1;
      free (p);
    }
  return 0;
}
