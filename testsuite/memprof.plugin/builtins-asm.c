/* Memory builtin calls become calls to the runtime, also those that GCC
   would otherwise expand inline (a 32-byte memset, a 100-byte copy).  */
/* { dg-do compile } */
/* { dg-options "-O2" } */

#include <string.h>

void
small_constant (char *p, const char *q)
{
  memset (p, 0, 32);
  memcpy (p + 32, q, 100);
  memmove (p + 1, p, 100);
}

/* { dg-final { scan-assembler "call\\t__memprof_memset" } } */
/* { dg-final { scan-assembler "call\\t__memprof_memcpy" } } */
/* { dg-final { scan-assembler "__memprof_memmove" } } */
/* { dg-final { scan-assembler-not "call\\tmem(set|cpy|move)" } } */
