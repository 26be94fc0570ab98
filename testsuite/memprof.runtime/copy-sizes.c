/* The runtime's own copies and fills at every small size and around its
   size thresholds: realloc keeps the old contents (growing and
   shrinking), calloc zeroes a block that held other data, strdup and
   strndup copy exactly.  Exit status names the first failure.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdlib.h>
#include <string.h>

static unsigned char pattern (size_t i, size_t seed)
{
  return (unsigned char) (i * 131 + seed * 7 + 1);
}

int
main (void)
{
  static char text[1200];
  for (size_t i = 0; i < sizeof text - 1; i++)
    text[i] = 'a' + i % 26;
  for (size_t n = 0; n <= 1100; n++)
    {
      unsigned char *p = malloc (n + 1);
      if (!p)
	return 1;
      for (size_t i = 0; i <= n; i++)
	p[i] = pattern (i, n);
      /* Grow, then shrink back below the original size.  */
      unsigned char *q = realloc (p, n + 1 + n % 37 + 1);
      if (!q)
	return 2;
      for (size_t i = 0; i <= n; i++)
	if (q[i] != pattern (i, n))
	  return 3;
      unsigned char *r = realloc (q, n / 2 + 1);
      if (!r)
	return 4;
      for (size_t i = 0; i <= n / 2; i++)
	if (r[i] != pattern (i, n))
	  return 5;
      /* Dirty a block, free it, and have calloc hand out memory that may
	 be the same block.  */
      memset (r, 0xa5, n / 2 + 1);
      free (r);
      unsigned char *z = calloc (1, n + 1);
      if (!z)
	return 6;
      for (size_t i = 0; i <= n; i++)
	if (z[i])
	  return 7;
      free (z);
      /* strdup / strndup of a string of length N.  */
      char saved = text[n];
      text[n] = 0;
      char *d = strdup (text);
      char *e = strndup (text, n / 3);
      text[n] = saved;
      if (!d || !e || strlen (d) != n || strlen (e) != n / 3
	  || memcmp (d, text, n) != 0 || memcmp (e, text, n / 3) != 0)
	return 8;
      free (d);
      free (e);
    }
  return 0;
}
