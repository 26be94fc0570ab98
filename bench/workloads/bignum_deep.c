/* Tiny blocks from deep in the stack: small fixed-width integers of 2..8
   32-bit limbs (8..32-byte blocks), each made by its own malloc, combined
   by a chain of 15 distinct functions, each of which calls the next and
   then multiplies and adds what it got back.  Stands for bignum and
   computer-algebra programs: millions of 8-32 byte allocations whose
   stacks are 15-20 frames deep, so the profiler's stack capture, not the
   program's memory accesses, is what a run costs.  */

#include "bench-common.h"
#include <string.h>

#define MAX_LIMBS 8

struct num
{
  int len;              /* limbs in use, 1..MAX_LIMBS */
  uint32_t *limb;       /* least significant first, its own small block */
};

static struct num
num_alloc (int len)
{
  struct num n;
  n.len = len;
  n.limb = malloc (len * sizeof *n.limb);
  return n;
}

static struct num
num_random (uint64_t *rng)
{
  struct num n = num_alloc (2 + (int) (bench_rand (rng) % 3));
  for (int i = 0; i < n.len; i++)
    n.limb[i] = (uint32_t) bench_rand (rng);
  return n;
}

/* A + B, truncated to MAX_LIMBS limbs.  */
static struct num
num_add (struct num a, struct num b)
{
  int len = (a.len > b.len ? a.len : b.len) + 1;
  if (len > MAX_LIMBS)
    len = MAX_LIMBS;
  struct num r = num_alloc (len);
  uint64_t carry = 0;
  for (int i = 0; i < len; i++)
    {
      uint64_t s = carry;
      if (i < a.len)
	s += a.limb[i];
      if (i < b.len)
	s += b.limb[i];
      r.limb[i] = (uint32_t) s;
      carry = s >> 32;
    }
  return r;
}

/* A * B, truncated to MAX_LIMBS limbs (arithmetic modulo 2^256).  */
static struct num
num_mul (struct num a, struct num b)
{
  int len = a.len + b.len;
  if (len > MAX_LIMBS)
    len = MAX_LIMBS;
  uint32_t acc[2 * MAX_LIMBS];
  memset (acc, 0, sizeof acc);
  for (int i = 0; i < a.len; i++)
    {
      uint64_t carry = 0;
      for (int j = 0; j < b.len && i + j < len; j++)
	{
	  uint64_t t = (uint64_t) a.limb[i] * b.limb[j] + acc[i + j] + carry;
	  acc[i + j] = (uint32_t) t;
	  carry = t >> 32;
	}
      if (i + b.len < len)
	acc[i + b.len] = (uint32_t) carry;
    }
  struct num r = num_alloc (len);
  memcpy (r.limb, acc, len * sizeof *r.limb);
  return r;
}

static void
num_free (struct num n)
{
  free (n.limb);
}

static uint64_t
num_hash (struct num n)
{
  uint64_t h = (uint64_t) n.len;
  for (int i = 0; i < n.len; i++)
    h = bench_mix (h, n.limb[i]);
  return h;
}

/* The chain: level K calls level K-1, then folds in a fresh random
   number by a multiply and an add, freeing every temporary.  Each level
   is its own non-inlined function with work after the call, so each is
   a real frame on every allocation's stack.  */
static struct num
level_0 (uint64_t *rng)
{
  return num_random (rng);
}

#define LEVEL(K, PREV)							\
  static __attribute__ ((noinline)) struct num				\
  level_##K (uint64_t *rng)						\
  {									\
    struct num x = level_##PREV (rng);					\
    struct num y = num_random (rng);					\
    struct num p = num_mul (x, y);					\
    struct num s = num_add (p, y);					\
    num_free (x);							\
    num_free (y);							\
    num_free (p);							\
    return s;								\
  }

LEVEL (1, 0) LEVEL (2, 1) LEVEL (3, 2) LEVEL (4, 3) LEVEL (5, 4)
LEVEL (6, 5) LEVEL (7, 6) LEVEL (8, 7) LEVEL (9, 8) LEVEL (10, 9)
LEVEL (11, 10) LEVEL (12, 11) LEVEL (13, 12) LEVEL (14, 13)

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long rounds = 6000 * scale;
  uint64_t rng = 0x5eed0b16;
  uint64_t h = 0;
  /* A few results kept alive a while, as a program's intermediate
     values are.  */
  struct num keep[64];
  for (int i = 0; i < 64; i++)
    keep[i] = num_random (&rng);
  for (long r = 0; r < rounds; r++)
    {
      struct num v = level_14 (&rng);
      int slot = (int) (r & 63);
      struct num t = num_add (keep[slot], v);
      num_free (keep[slot]);
      num_free (v);
      keep[slot] = t;
    }
  for (int i = 0; i < 64; i++)
    {
      h = bench_mix (h, num_hash (keep[i]));
      num_free (keep[i]);
    }
  printf ("bignum_deep %016llx\n", (unsigned long long) h);
  return 0;
}
