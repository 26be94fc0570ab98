/* Forty functions that call each other, each with a few heap accesses:
   enough work for the garbage collector to run between functions.  Shared
   by gc-roots.c (inline mode) and gc-roots-callbacks.c.  */

#include <stdlib.h>
#include <string.h>

struct s { int a[8]; int b; };

__attribute__ ((noinline)) int
f0 (int *p, struct s *q)
{
  memset (q, 0, sizeof *q);
  return p[0];
}

int
f1 (int *p, struct s *q)
{
  q->a[1] += p[1];
  return q->b + f0 (p + 1, q);
}

int
f2 (int *p, struct s *q)
{
  q->a[2] += p[2];
  return q->b + f1 (p + 1, q);
}

int
f3 (int *p, struct s *q)
{
  q->a[3] += p[3];
  return q->b + f2 (p + 1, q);
}

int
f4 (int *p, struct s *q)
{
  q->a[4] += p[4];
  return q->b + f3 (p + 1, q);
}

int
f5 (int *p, struct s *q)
{
  q->a[5] += p[5];
  return q->b + f4 (p + 1, q);
}

int
f6 (int *p, struct s *q)
{
  q->a[6] += p[6];
  return q->b + f5 (p + 1, q);
}

int
f7 (int *p, struct s *q)
{
  q->a[7] += p[7];
  return q->b + f6 (p + 1, q);
}

int
f8 (int *p, struct s *q)
{
  q->a[0] += p[8];
  return q->b + f7 (p + 1, q);
}

int
f9 (int *p, struct s *q)
{
  q->a[1] += p[9];
  return q->b + f8 (p + 1, q);
}

int
f10 (int *p, struct s *q)
{
  q->a[2] += p[10];
  return q->b + f9 (p + 1, q);
}

int
f11 (int *p, struct s *q)
{
  q->a[3] += p[11];
  return q->b + f10 (p + 1, q);
}

int
f12 (int *p, struct s *q)
{
  q->a[4] += p[12];
  return q->b + f11 (p + 1, q);
}

int
f13 (int *p, struct s *q)
{
  q->a[5] += p[13];
  return q->b + f12 (p + 1, q);
}

int
f14 (int *p, struct s *q)
{
  q->a[6] += p[14];
  return q->b + f13 (p + 1, q);
}

int
f15 (int *p, struct s *q)
{
  q->a[7] += p[15];
  return q->b + f14 (p + 1, q);
}

int
f16 (int *p, struct s *q)
{
  q->a[0] += p[16];
  return q->b + f15 (p + 1, q);
}

int
f17 (int *p, struct s *q)
{
  q->a[1] += p[17];
  return q->b + f16 (p + 1, q);
}

int
f18 (int *p, struct s *q)
{
  q->a[2] += p[18];
  return q->b + f17 (p + 1, q);
}

int
f19 (int *p, struct s *q)
{
  q->a[3] += p[19];
  return q->b + f18 (p + 1, q);
}

int
f20 (int *p, struct s *q)
{
  q->a[4] += p[20];
  return q->b + f19 (p + 1, q);
}

int
f21 (int *p, struct s *q)
{
  q->a[5] += p[21];
  return q->b + f20 (p + 1, q);
}

int
f22 (int *p, struct s *q)
{
  q->a[6] += p[22];
  return q->b + f21 (p + 1, q);
}

int
f23 (int *p, struct s *q)
{
  q->a[7] += p[23];
  return q->b + f22 (p + 1, q);
}

int
f24 (int *p, struct s *q)
{
  q->a[0] += p[24];
  return q->b + f23 (p + 1, q);
}

int
f25 (int *p, struct s *q)
{
  q->a[1] += p[25];
  return q->b + f24 (p + 1, q);
}

int
f26 (int *p, struct s *q)
{
  q->a[2] += p[26];
  return q->b + f25 (p + 1, q);
}

int
f27 (int *p, struct s *q)
{
  q->a[3] += p[27];
  return q->b + f26 (p + 1, q);
}

int
f28 (int *p, struct s *q)
{
  q->a[4] += p[28];
  return q->b + f27 (p + 1, q);
}

int
f29 (int *p, struct s *q)
{
  q->a[5] += p[29];
  return q->b + f28 (p + 1, q);
}

int
f30 (int *p, struct s *q)
{
  q->a[6] += p[30];
  return q->b + f29 (p + 1, q);
}

int
f31 (int *p, struct s *q)
{
  q->a[7] += p[31];
  return q->b + f30 (p + 1, q);
}

int
f32 (int *p, struct s *q)
{
  q->a[0] += p[32];
  return q->b + f31 (p + 1, q);
}

int
f33 (int *p, struct s *q)
{
  q->a[1] += p[33];
  return q->b + f32 (p + 1, q);
}

int
f34 (int *p, struct s *q)
{
  q->a[2] += p[34];
  return q->b + f33 (p + 1, q);
}

int
f35 (int *p, struct s *q)
{
  q->a[3] += p[35];
  return q->b + f34 (p + 1, q);
}

int
f36 (int *p, struct s *q)
{
  q->a[4] += p[36];
  return q->b + f35 (p + 1, q);
}

int
f37 (int *p, struct s *q)
{
  q->a[5] += p[37];
  return q->b + f36 (p + 1, q);
}

int
f38 (int *p, struct s *q)
{
  q->a[6] += p[38];
  return q->b + f37 (p + 1, q);
}

int
f39 (int *p, struct s *q)
{
  q->a[7] += p[39];
  return q->b + f38 (p + 1, q);
}

int
main (void)
{
  int *p = calloc (100, sizeof (int));
  struct s *q = malloc (sizeof *q);
  int r = f39 (p, q);
  free (p);
  free (q);
  return r;
}
