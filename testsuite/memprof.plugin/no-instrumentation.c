/* Locals whose address does not escape, named globals, string literals
   and constant tables are not heap: a file of such functions contains
   no instrumentation and never loads the shadow base.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-stats" } */

struct point { int x, y; };
struct point origin;
static const int table[8] = { 1, 2, 3, 5, 8, 13, 21, 34 };
int history[16];

int
globals_by_name (int i)
{
  origin.x += i;
  history[i & 15] = origin.x + origin.y;
  return table[i & 7] + history[(i + 1) & 15];
}

int
local_array (int n)
{
  volatile int scratch[32];
  for (int i = 0; i < 32; i++)
    scratch[i] = i * n;
  int *p = (int *) &scratch[n & 31];
  return *p + scratch[3];
}

/* Points-to analysis proves P only points to A or B.  */
int
pointer_to_locals (int n, int i)
{
  int a[16], b[16];
  int *p = n > 0 ? a : b;
  for (int k = 0; k < 16; k++)
    a[k] = b[k] = k * n;
  p[i & 15] += n;
  __asm__ ("" : : "r" (p) : );
  return p[(i + 1) & 15] + a[i & 15];
}

char
literal (int i)
{
  return "abcdefgh"[i & 7];
}

/* { dg-final { scan-assembler-not "__memprof_shadow_memory_dynamic_address" } } */
/* { dg-final { scan-compiler-output "memprof: globals_by_name: 0 instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: local_array: 0 instrumented" } } */
/* { dg-final { scan-compiler-output "memprof: pointer_to_locals: 0 instrumented, \[0-9\]+ skipped \\(\[0-9\]+ local, 0 global, \[1-9\]\[0-9\]* stack-pointer" } } */
/* { dg-final { scan-compiler-output "memprof: literal: 0 instrumented" } } */
