/* class-cache-sets.c uninstrumented, against glibc's malloc: its heap,
   one block after another, meets the bound the runtime is held to.  */
/* { dg-do run } */
/* { dg-options "-O2 -fno-heapprof" } */

#include "class-cache-sets.c"

/* { dg-output "class-cache-sets: 59 blocks spread\n" } */
