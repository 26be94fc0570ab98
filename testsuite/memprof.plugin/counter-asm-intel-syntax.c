/* The counter blocks of counter-asm-O2.c in GCC's Intel assembler dialect
   (-masm=intel): the same sites and steps, in Intel syntax.  That they
   assemble and count exactly is counter-asm-intel.c's test.  */
/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-O2 -masm=intel" } */

#include "counter-sequence.h"

/* { dg-final { scan-assembler-times "#APP" 8 } } */
/* { dg-final { scan-assembler-times "shr\tr\[a-z0-9\]+, 6" 12 } } */
/* { dg-final { scan-assembler-times "add\tQWORD PTR \\\[r\[a-z0-9\]+\\+r\[a-z0-9\]+\\*8\\\], 1\n" 11 } } */
/* { dg-final { scan-assembler-times "add\tQWORD PTR \\\[r\[a-z0-9\]+\\+r\[a-z0-9\]+\\*8\\\], 2\n" 1 } } */
/* { dg-final { scan-assembler-times "lea\tr\[a-z0-9\]+, \\\[r\[a-z0-9\]+\\+8\\\]" 1 } } */
/* { dg-final { scan-assembler-times "lea\tr\[a-z0-9\]+, \\\[r\[a-z0-9\]+\\+16\\\]" 1 } } */
/* { dg-final { scan-assembler-times "lea\tr\[a-z0-9\]+, \\\[r\[a-z0-9\]+\\+r\[a-z0-9\]+\\*4\\\]\n\tshr" 1 } } */
/* { dg-final { scan-assembler-times "lea\tr\[a-z0-9\]+, \\\[rdi-8\\\]\n\tshr" 1 } } */
