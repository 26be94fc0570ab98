/* Two stores through a pointer read twice, because the first (a char
   store) may have changed it: the string builder's p[len] = c;
   p[len + 1] = 0.  The asm counter blocks count the two with one add
   when they share a granule and with one add each when they do not
   (counter_asm.cc); either way each granule gets its own accesses.
   Each block is 64-byte aligned, so which granules an append touches is
   known: appending at LEN writes bytes LEN and LEN + 1.  Included by
   paired-counts-O0.c, paired-counts-O2.c and paired-counts-gimple-O2.c.  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

struct builder
{
  char *data;
  long len;
};

#define ALLOCATOR(name, size)					\
  NOINLINE void *name (void)					\
  {								\
    void *p = aligned_alloc (64, size);			\
    __asm__ volatile ("" : : "r" (p) : "memory");		\
    return p;							\
  }
ALLOCATOR (alloc_inside, 128)
ALLOCATOR (alloc_across, 128)
ALLOCATOR (alloc_run, 192)

/* Two writes of B->data (the builder is a local of main: not counted
   in any block).  */
NOINLINE void
append_char (struct builder *b, char c)
{
  b->data[b->len] = c;
  b->len++;
  b->data[b->len] = 0;
}

int
main (void)
{
  struct builder inside = { alloc_inside (), 10 };
  append_char (&inside, 'a');		/* bytes 10, 11: granule 0 twice; 3 */
  struct builder across = { alloc_across (), 63 };
  append_char (&across, 'b');		/* bytes 63, 64: granules 0, 1; 3 */
  struct builder run = { alloc_run (), 0 };
  for (int i = 0; i < 150; i++)
    append_char (&run, (char) ('a' + i % 26));	/* 300 writes, 0..150; 301 */
  /* One read each, in a granule already written: ACROSS's second
     granule is touched only by the pair's second store.  */
  int ok = inside.data[10] == 'a' && across.data[63] == 'b'
	   && run.data[149] == 't' && run.len == 150;
  free (inside.data);
  free (across.data);
  free (run.data);
  return ok ? 0 : 1;
}
