/* Shared by the benchmark workloads: a deterministic PRNG, the scale
   argument, and the checksum mixer.  Every workload is a self-contained
   program whose only input is its scale (argv[1], default 100 = the full
   run of about a second) and whose only stdout line is its checksum, so
   the four builds of a workload can be checked against each other.  */

#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* xorshift64*: fast, deterministic, good enough to shuffle keys.  */
static inline uint64_t
bench_rand (uint64_t *state)
{
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * UINT64_C (2685821657736338717);
}

static inline uint64_t
bench_mix (uint64_t h, uint64_t v)
{
  h ^= v + UINT64_C (0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
  return h;
}

/* The scale argument: a positive integer, 100 for the full run.  */
static inline long
bench_scale (int argc, char **argv)
{
  if (argc < 2)
    return 100;
  char *end;
  long s = strtol (argv[1], &end, 10);
  if (*end != '\0' || s <= 0)
    {
      fprintf (stderr, "%s: bad scale '%s' (want a positive integer)\n",
	       argv[0], argv[1]);
      exit (2);
    }
  return s;
}

#endif /* BENCH_COMMON_H */
