/* paired-counts-asm.c in GCC's Intel assembler dialect.  */
/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-O2 -g0 -masm=intel" } */

#include "paired-counts.h"

/* { dg-final { scan-assembler-times "cmp\tr\[a-z0-9\]+, r\[a-z0-9\]+\n\tjne\t1f\n\tadd\tQWORD PTR \\\[r\[a-z0-9\]+\\+r\[a-z0-9\]+\\*8\\\], 2\n\tjmp\t2f\n1:\n\tadd\tQWORD PTR \\\[r\[a-z0-9\]+\\+r\[a-z0-9\]+\\*8\\\], 1\n\tadd\tQWORD PTR \\\[r\[a-z0-9\]+\\+r\[a-z0-9\]+\\*8\\\], 1\n\t2:" 1 } } */
