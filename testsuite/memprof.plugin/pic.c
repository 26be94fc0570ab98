/* Position-independent code reads the shadow base through the GOT, once
   per function.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fPIC" } */

void
fill (int *p, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = i;
}

/* { dg-final { scan-assembler-times "__memprof_shadow_memory_dynamic_address@GOTPCREL" 1 } } */
