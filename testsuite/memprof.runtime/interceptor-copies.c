/* memcpy and memmove through the C library's entry points (the
   runtime's interceptors, which count and then copy): every
   size from 0 to 40 bytes at every alignment, and memmove between
   overlapping ranges in both directions, byte-exact, nothing written
   outside the destination.  Exit status names the first failure.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <stdlib.h>
#include <string.h>

static void *(*volatile copy) (void *, const void *, size_t) = memcpy;
static void *(*volatile move) (void *, const void *, size_t) = memmove;

static unsigned char
pattern (size_t i)
{
  return (unsigned char) (i * 37 + 11);
}

int
main (void)
{
  unsigned char *src = malloc (128), *dst = malloc (128), *ref = malloc (128);
  if (!src || !dst || !ref)
    return 1;
  for (size_t i = 0; i < 128; i++)
    src[i] = pattern (i);
  for (size_t n = 0; n <= 40; n++)
    for (size_t so = 0; so < 16; so++)
      for (size_t dof = 0; dof < 16; dof++)
	{
	  memset (dst, 0xee, 128);
	  if (copy (dst + dof, src + so, n) != dst + dof)
	    return 2;
	  for (size_t i = 0; i < 128; i++)
	    {
	      unsigned char want = i >= dof && i < dof + n
				     ? pattern (so + i - dof) : 0xee;
	      if (dst[i] != want)
		return 3;
	    }
	}
  for (size_t n = 0; n <= 40; n++)
    for (int shift = -17; shift <= 17; shift++)
      {
	size_t from = 40, to = (size_t) (40 + shift);
	for (size_t i = 0; i < 128; i++)
	  dst[i] = ref[i] = pattern (i * 3);
	/* The reference: through a separate buffer.  */
	unsigned char tmp[64];
	for (size_t i = 0; i < n; i++)
	  tmp[i] = ref[from + i];
	for (size_t i = 0; i < n; i++)
	  ref[to + i] = tmp[i];
	if (move (dst + to, dst + from, n) != dst + to)
	  return 4;
	if (memcmp (dst, ref, 128) != 0)
	  return 5;
      }
  free (src);
  free (dst);
  free (ref);
  return 0;
}
