/* 256 allocation contexts of tiny blocks (sampling.exp): 256 functions,
   each calling malloc from its own call site 4 times, 16 KiB in all.
   Exact, the profile holds 256 contexts; sampled with a large interval,
   almost no block is sampled, and an unsampled block must capture no
   stack at all: the runtime's count of captured stacks stays small.  */

#include <stdlib.h>

#define SITE(n)                                                        \
  __attribute__ ((noinline)) static void *site_##n (void)              \
  {                                                                    \
    return malloc (16);                                                \
  }
#define SITES4(n) SITE (n##0) SITE (n##1) SITE (n##2) SITE (n##3)
#define SITES16(n) SITES4 (n##0) SITES4 (n##1) SITES4 (n##2) SITES4 (n##3)
#define SITES64(n) SITES16 (n##0) SITES16 (n##1) SITES16 (n##2) SITES16 (n##3)
SITES64 (0) SITES64 (1) SITES64 (2) SITES64 (3)

#define REF(n) site_##n,
#define REFS4(n) REF (n##0) REF (n##1) REF (n##2) REF (n##3)
#define REFS16(n) REFS4 (n##0) REFS4 (n##1) REFS4 (n##2) REFS4 (n##3)
#define REFS64(n) REFS16 (n##0) REFS16 (n##1) REFS16 (n##2) REFS16 (n##3)
static void *(*const sites[]) (void) = { REFS64 (0) REFS64 (1) REFS64 (2)
                                         REFS64 (3) };

int
main (void)
{
  for (int round = 0; round < 4; round++)
    for (unsigned i = 0; i < sizeof sites / sizeof sites[0]; i++)
      free (sites[i] ());
  return 0;
}
