/* Callback mode at -O2: 4 loads and 3 stores, classified.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-memprof-callbacks" } */

#include "callbacks.h"

/* { dg-final { scan-assembler-times "call\t__memprof_load" 4 } } */
/* { dg-final { scan-assembler-times "call\t__memprof_store" 3 } } */
/* { dg-final { scan-assembler-not "__memprof_shadow_memory_dynamic_address" } } */
