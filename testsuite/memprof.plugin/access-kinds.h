/* Accesses of every ordinary kind, each to a block from its own
   allocation function, so each block's access count is known exactly.
   Included by access-kinds-O0.c and access-kinds-O2.c; at -O2 VOLATILE
   keeps the optimizers from merging or removing the scalar accesses.  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

struct pair { long a, b; };
struct record { int id; struct pair p; long more[6]; };
struct big { long x[4]; };

/* An allocation function per block; the asm keeps malloc from being
   a tail call, so each function stays frame 0 of its block's stack.  */
#define ALLOCATOR(name, size)			\
  NOINLINE void *name (void)			\
  {						\
    void *p = malloc (size);			\
    __asm__ volatile ("" : : "r" (p) : "memory");	\
    return p;					\
  }
ALLOCATOR (alloc_scalar, 64)
ALLOCATOR (alloc_field, sizeof (struct record))
ALLOCATOR (alloc_array, 64 * sizeof (long))
ALLOCATOR (alloc_copy_src, sizeof (struct big))
ALLOCATOR (alloc_copy_dst, sizeof (struct big))
ALLOCATOR (alloc_byval, sizeof (struct big))
ALLOCATOR (alloc_untouched, 128)

/* 2 stores, 1 load.  */
NOINLINE void
scalar_accesses (VOLATILE long *p)
{
  p[0] = 1;
  p[1] = p[0] + 2;
}

/* 2 stores, 2 loads.  */
NOINLINE long
field_accesses (VOLATILE struct record *r)
{
  r->id = 7;
  r->p.b = 2;
  return r->id + r->p.b;
}

/* N stores, then N loads.  */
NOINLINE long
array_accesses (VOLATILE long *a, int n)
{
  long sum = 0;
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int i = 0; i < n; i++)
    sum += a[i];
  return sum;
}

/* 4 stores.  */
NOINLINE void
init_big (struct big *b)
{
  VOLATILE long *x = b->x;
  for (int i = 0; i < 4; i++)
    x[i] = i;
}

/* An aggregate copy: 1 load of *SRC, 1 store to *DST.  */
NOINLINE void
copy_aggregate (struct big *dst, const struct big *src)
{
  *dst = *src;
}

/* Takes its argument by value: the caller loads *P once.  */
NOINLINE long
by_value (struct big b)
{
  return b.x[0] + b.x[3];
}

int
main (int argc, char **argv)
{
  (void) argv;
  long *scalar = alloc_scalar ();
  struct record *rec = alloc_field ();
  long *array = alloc_array ();
  struct big *src = alloc_copy_src ();
  struct big *dst = alloc_copy_dst ();
  struct big *arg = alloc_byval ();
  char *untouched = alloc_untouched ();

  scalar_accesses (scalar);
  long f = field_accesses (rec);
  long a = array_accesses (array, 63 + argc); /* 64 */
  init_big (src);
  copy_aggregate (dst, src);
  init_big (arg);
  long b = by_value (*arg);
  int result = (int) (f + a + b) & 1;
  free (scalar);
  free (rec);
  free (array);
  free (src);
  free (dst);
  free (arg);
  free (untouched);
  return result;
}
