/* A function with ten pointer accesses loads the shadow base once, at
   entry; the other function touches only locals and named globals and
   has no instrumentation at all (-O2).  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

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

/* { dg-final { scan-assembler-times "__memprof_shadow_memory_dynamic_address" 1 } } */
/* { dg-final { scan-compiler-output "memprof: locals_and_globals: 0 instrumented, \[1-9\]\[0-9\]* skipped" } } */
/* { dg-final { scan-compiler-output-not "memprof: ten_accesses: 0 instrumented" } } */
