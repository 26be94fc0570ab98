/* The interceptors count only ranges where a block may be (the
   allocator's primary space and the span of its mapped large blocks):
   every block still counts exactly, wherever the kernel maps a large
   one.  Twelve blocks of 1 MiB and more (each mapped on its own; half
   freed, then bigger ones mapped into or around the holes), each filled
   by memset, read by memcpy into a stack buffer and written by memcpy
   from a global: 16384 + 64 + 64 accesses each.  One 4000-byte block
   (32 bytes into its granule) written by memcpy from the stack and read
   by strlen: 63 + 63.  */

#include <stdlib.h>
#include <string.h>

#define MIB ((size_t) 1 << 20)

static char global_src[4096];
static volatile size_t sink;

/* Called through pointers, so GCC neither expands nor folds them: these
   are the C library's entry points, the runtime's interceptors.  */
static void *(*volatile copy) (void *, const void *, size_t) = memcpy;
static void *(*volatile fill) (void *, int, size_t) = memset;
static size_t (*volatile length) (const char *) = strlen;

__attribute__ ((noinline)) static char *
site_big (size_t n)
{
  return malloc (n);
}

__attribute__ ((noinline)) static char *
site_small (void)
{
  return malloc (4000);
}

static void
use_big (char *p)
{
  char local[4096];
  fill (p, 1, MIB);
  copy (local, p, sizeof local);
  copy (p + MIB - sizeof global_src, global_src, sizeof global_src);
  sink += local[sink & 4095];
}

static size_t
fill_and_measure (char *s, const char *src, size_t n)
{
  copy (s, src, n);
  return length (s);
}

int
main (void)
{
  char *big[12];
  for (int i = 0; i < 12; i++)
    {
      if (i == 8)
	for (int j = 0; j < 8; j += 2)
	  free (big[j]);
      big[i] = site_big (i < 8 ? MIB + (size_t) i * 3 * 4096
			       : 2 * MIB + (size_t) i * 4096);
      if (!big[i])
	return 1;
      use_big (big[i]);
    }
  for (int i = 1; i < 12; i += (i < 8 ? 2 : 1))
    free (big[i]);

  char local[4000];
  for (size_t i = 0; i < sizeof local; i++)
    local[i] = 'a' + i % 26;
  local[sizeof local - 1] = 0;
  char *s = site_small ();
  if (!s)
    return 3;
  sink += fill_and_measure (s, local, sizeof local);
  free (s);
  return 0;
}
