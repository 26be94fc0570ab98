/* Two runs to compare with memprof-dump --diff: run N (1 or 2) makes
   N blocks of 100 bytes at grows_site, 10 of 64 at stable_site, and
   only in run 1 five of 32 at base_only_site, only in run 2 seven of
   16 at new_only_site.  */
#include <stdlib.h>

static void *keep[64];
static int kept;

__attribute__ ((noinline)) static void
grows_site (void)
{
  keep[kept++] = malloc (100);
}

__attribute__ ((noinline)) static void
stable_site (void)
{
  keep[kept++] = malloc (64);
}

__attribute__ ((noinline)) static void
base_only_site (void)
{
  keep[kept++] = malloc (32);
}

__attribute__ ((noinline)) static void
new_only_site (void)
{
  keep[kept++] = malloc (16);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1;
  for (int i = 0; i < n; i++)
    grows_site ();
  for (int i = 0; i < 10; i++)
    stable_site ();
  for (int i = 0; i < 5 && n == 1; i++)
    base_only_site ();
  for (int i = 0; i < 7 && n == 2; i++)
    new_only_site ();
  for (int i = 0; i < kept; i++)
    free (keep[i]);
  return 0;
}
