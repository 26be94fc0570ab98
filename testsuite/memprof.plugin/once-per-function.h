/* A function with ten pointer accesses and one touching only locals,
   named globals and literals.  Shared by once-per-function-O0.c and -O2.c.  */

int counter;

void
ten_accesses (int *p, long *q, int n)
{
  p[0] = n;
  p[1] = p[0] + 1;
  q[3] = p[1];
  if (n > 2)
    {
      p[2] = 7;
      q[4] = q[3] * 2;
    }
  for (int i = 0; i < n; i++)
    q[i + 8] += p[i & 1];
}

int
locals_and_globals (int x)
{
  int a[4] = { x, x + 1, x + 2, x + 3 };
  a[x & 3] += counter;
  counter = a[0] + a[3] + a[x & 1];
  return counter;
}
