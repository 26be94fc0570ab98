/* A kept mapping (large-blocks-kept.c) never costs the program an
   allocation: under an address-space limit (ulimit -v) that leaves room
   for one 36 MiB block but not beside the kept mapping of a freed 32 MiB
   one, malloc of the 36 MiB block gives the kept mappings back and
   succeeds, as it does under glibc (the -glibc variant).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mapped-bytes.h"

#define MIB ((size_t) 1 << 20)


int
main (void)
{
  char *first = malloc (32 * MIB);
  if (!first)
    abort ();
  memset (first, 1, 32 * MIB);
  __asm__ volatile ("" : : "r" (first) : "memory");
  long limit = mapped_bytes () + 8 * MIB;
  free (first);
  struct rlimit r = { (rlim_t) limit, (rlim_t) limit };
  if (setrlimit (RLIMIT_AS, &r) != 0)
    abort ();
  char *second = malloc (36 * MIB);
  if (!second)
    {
      fprintf (stderr, "FAILED: malloc of 36 MiB under the limit\n");
      abort ();
    }
  memset (second, 2, 36 * MIB);
  __asm__ volatile ("" : : "r" (second) : "memory");
  free (second);
  printf ("large-blocks-kept-limit: ok\n");
  return 0;
}

/* { dg-output "large-blocks-kept-limit: ok\n" } */
