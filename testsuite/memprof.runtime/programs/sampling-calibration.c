/* Allocation sites of known totals for sampling-calibration.exp.  In the
   sampling mode each site's counts and bytes must come out exact (the
   runtime tallies every allocation per frame-0 site and calibrates the
   sampled records to the tally):
     site_small      400,000 blocks of 24 bytes
     site_mixed       50,000 blocks of 16 + i % 385 bytes (10,391,625 in all)
     shared_helper   one call site, two contexts of 48-byte blocks:
                     by split_left 300,000, by split_right 100,000
     sized_helper    one call site, two contexts: by sized_a 100,000
                     blocks of 32 bytes, by sized_b 10,000 of 256
     site_once       1 block of 8 bytes
     site_calloc     20,000 blocks of 3 x 20 bytes
     site_pre        10,000 blocks of 50 bytes, each realloc'd by
     site_realloc    to 100 bytes
     site_NNNNN      2,048 functions, 3 blocks of 16 bytes each (more
                     sites than a thread's tally table holds, 1,024: the
                     overflow)  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline))

NOINLINE void *site_small (void) { return malloc (24); }
NOINLINE void *site_mixed (size_t n) { return malloc (n); }
NOINLINE void *shared_helper (size_t n) { return malloc (n); }
NOINLINE void *split_left (void) { return shared_helper (48); }
NOINLINE void *split_right (void) { return shared_helper (48); }
NOINLINE void *sized_helper (size_t n) { return malloc (n); }
NOINLINE void *sized_a (void) { return sized_helper (32); }
NOINLINE void *sized_b (void) { return sized_helper (256); }
NOINLINE void *site_once (void) { return malloc (8); }
NOINLINE void *site_calloc (void) { return calloc (3, 20); }
NOINLINE void *site_pre (void) { return malloc (50); }
NOINLINE void *site_realloc (void *p) { return realloc (p, 100); }

#define SITE(n)                                                        \
  NOINLINE static void *site_##n (void) { return malloc (16); }
#define SITES4(n) SITE (n##0) SITE (n##1) SITE (n##2) SITE (n##3)
#define SITES16(n) SITES4 (n##0) SITES4 (n##1) SITES4 (n##2) SITES4 (n##3)
#define SITES64(n) SITES16 (n##0) SITES16 (n##1) SITES16 (n##2) SITES16 (n##3)
#define SITES256(n) SITES64 (n##0) SITES64 (n##1) SITES64 (n##2) SITES64 (n##3)
SITES256 (0) SITES256 (1) SITES256 (2) SITES256 (3)
SITES256 (4) SITES256 (5) SITES256 (6) SITES256 (7)

#define REF(n) site_##n,
#define REFS4(n) REF (n##0) REF (n##1) REF (n##2) REF (n##3)
#define REFS16(n) REFS4 (n##0) REFS4 (n##1) REFS4 (n##2) REFS4 (n##3)
#define REFS64(n) REFS16 (n##0) REFS16 (n##1) REFS16 (n##2) REFS16 (n##3)
#define REFS256(n) REFS64 (n##0) REFS64 (n##1) REFS64 (n##2) REFS64 (n##3)
static void *(*const many[]) (void) = {
  REFS256 (0) REFS256 (1) REFS256 (2) REFS256 (3)
  REFS256 (4) REFS256 (5) REFS256 (6) REFS256 (7)
};

static void *volatile sink;

static void
use (void *p)
{
  sink = p;
  free (p);
}

int
main (void)
{
  for (int i = 0; i < 400000; i++)
    {
      use (site_small ());
      use ((i & 3) ? split_left () : split_right ());
      if (i < 50000)
        use (site_mixed (16 + i % 385));
      if (i < 100000)
        use (sized_a ());
      if (i < 10000)
        {
          use (sized_b ());
          use (site_realloc (site_pre ()));
        }
      if (i < 20000)
        use (site_calloc ());
    }
  use (site_once ());
  for (int round = 0; round < 3; round++)
    for (unsigned i = 0; i < sizeof many / sizeof many[0]; i++)
      use (many[i] ());
  return 0;
}
