/* The page pattern of the realloc-grow-mapped tests: each page of a
   block holds one byte value, written by one memset per page and
   checked by memcmp against a page of that value (memcmp is neither
   instrumented nor intercepted: checking counts no access).  Fill PAGES
   first: pages[V] is a page of bytes V.  */

#ifndef PAGE_PATTERN_H
#define PAGE_PATTERN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE ((size_t) 4096)

static unsigned char pages[256][PAGE];

static void
fill_pages (void)
{
  for (int v = 0; v < 256; v++)
    memset (pages[v], v, PAGE);
}

static unsigned char
value_at (size_t off)
{
  return (unsigned char) ((off / PAGE * 37 + 11) % 251 + 1);
}

/* Write the pattern into bytes [FROM, TO) of P, one memset per page:
   one access for every granule written.  */
static void
fill (char *p, size_t from, size_t to)
{
  while (from < to)
    {
      size_t end = (from / PAGE + 1) * PAGE;
      if (end > to)
        end = to;
      memset (p + from, value_at (from), end - from);
      from = end;
    }
}

/* Abort naming WHAT unless the first N bytes of P hold the pattern.  */
static void
check (const char *p, size_t n, const char *what)
{
  for (size_t off = 0; off < n;)
    {
      size_t end = (off / PAGE + 1) * PAGE;
      if (end > n)
        end = n;
      if (memcmp (p + off, pages[value_at (off)], end - off) != 0)
        {
          fprintf (stderr, "FAILED: %s: bytes %zu..%zu lost\n", what, off,
                   end);
          abort ();
        }
      off = end;
    }
}

#endif
