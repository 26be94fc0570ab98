/* Sites of very different block sizes behind one malloc call (as every
   allocation of SQLite goes through sqlite3MemMalloc), for
   sampling-calibration.exp, run at sample_interval=65536:
     huge   2 blocks of 1 MiB (at least the interval: weight 1)
     small  500 blocks of 48 bytes (24,000: about one sample in three runs)
   through wrap (); through wrap3 ():
     quads  2 blocks of 256 KiB (the same)
     bits   500 blocks of 48 bytes
     specks 100,000 blocks of 2 bytes (a record of tiny blocks beside
            large ones: its mean size rounded wrongly read 2.8, max 2)
   and through wrap2 (), at about 1/30, 1/250 and
   1/2500 of the interval:
     pages  2 x 20,000 blocks of 128..384 bytes
     bulky  10 blocks of 12,500..35,600 bytes
     crumbs 20,000 blocks of 16..40 bytes  */

#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__ ((noinline))

NOINLINE void *wrap (size_t n) { return malloc (n); }
NOINLINE void *wrap2 (size_t n) { return malloc (n); }
NOINLINE void *wrap3 (size_t n) { return malloc (n); }

static void *volatile sink;

static void
use (void *p)
{
  sink = p;
  memset (p, 1, 8);
  free (p);
}

static unsigned rnd = 12345;

static unsigned
next (void)
{
  rnd = rnd * 1103515245u + 12345u;
  return rnd >> 8;
}

NOINLINE void huge (void) { for (int i = 0; i < 2; i++) use (wrap (1 << 20)); }
NOINLINE void small (void) { for (int i = 0; i < 500; i++) use (wrap (48)); }
NOINLINE void quads (void) { for (int i = 0; i < 2; i++) use (wrap3 (256 << 10)); }
NOINLINE void bits (void) { for (int i = 0; i < 500; i++) use (wrap3 (48)); }
NOINLINE void pages (void) { for (int i = 0; i < 20000; i++) use (wrap2 (128 + next () % 256)); }
NOINLINE void bulky (void) { for (int i = 0; i < 10; i++) use (wrap2 (12500 + next () % 23100)); }
NOINLINE void crumbs (void) { for (int i = 0; i < 20000; i++) use (wrap2 (16 + next () % 24)); }
NOINLINE void
specks (void)
{
  for (int i = 0; i < 100000; i++)
    {
      char *p = wrap3 (2);
      sink = p;
      memset (p, 1, 2);
      free (p);
    }
}

int
main (void)
{
  huge ();
  small ();
  quads ();
  bits ();
  pages ();
  bulky ();
  crumbs ();
  specks ();
  pages ();
  return 0;
}
