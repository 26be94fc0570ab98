/* Functions whose counter code the counter-sequence-O2.c (GIMPLE form),
   counter-asm-O2.c and counter-asm-intel-syntax.c (asm blocks in each
   assembler dialect) tests check.  */

long
load_two (long *p, long *q)
{
  return *p + *q;
}

void
bump (long *r)
{
  *r += 1;
}

void
bump_across_call (long *r, void (*callback) (void))
{
  long value = *r;
  callback ();
  *r = value + 1;
}

struct account
{
  long id;
  long balance;
  int flags;
};

long
fields (struct account *r)
{
  return r->id + r->balance + r->flags;
}

int
indexed (const int *a, long i)
{
  return a[i];
}

/* A loop over an array: the lea scales the index.  (It reads every
   third element only: not once per iteration, the read is counted
   access by access, not at the loop's exit.)  */
long
sum_array (const int *a, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    if (i % 3 == 0)
      s += a[i] * i;
  return s;
}

/* Offsets folded into the access (MEM[p + -8B]): the counter block takes
   P and the offset, computing nothing beforehand.  */
long
neighbours (long *p)
{
  return p[-1] + p[-3];
}
