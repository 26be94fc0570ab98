/* A deep chain allocating at every depth, for the stack cache's tests
   (stack-cache.c, stack-cache-signal.c): level_12 calls level_11 ...
   level_0, and each level K then allocates 16 + K bytes from
   chain_alloc, so its stacks differ only in their innermost frames.
   Wants <stdlib.h> and keep (P).  */

#ifndef STACK_CHAIN_H
#define STACK_CHAIN_H

__attribute__ ((noinline)) static void
chain_alloc (int level)
{
  char *p = malloc (16 + level);
  keep (p);
  free (p);
}

#define LEVEL(K, PREV)                                                  \
  __attribute__ ((noinline)) static void                                \
  level_##K (void)                                                      \
  {                                                                     \
    level_##PREV ();                                                    \
    chain_alloc (K);                                                    \
    keep (0);                                                           \
  }

__attribute__ ((noinline)) static void
level_0 (void)
{
  chain_alloc (0);
}

LEVEL (1, 0) LEVEL (2, 1) LEVEL (3, 2) LEVEL (4, 3) LEVEL (5, 4)
LEVEL (6, 5) LEVEL (7, 6) LEVEL (8, 7) LEVEL (9, 8) LEVEL (10, 9)
LEVEL (11, 10) LEVEL (12, 11)

#endif
