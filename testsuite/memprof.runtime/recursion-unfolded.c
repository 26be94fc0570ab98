/* MEMPROF_OPTIONS=fold_recursion=0 keeps every frame: each depth of a
   recursion is a context of its own, nothing is marked folded.  */
/* { dg-do run } */
/* { dg-options "-O0" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "fold_recursion=0" } */

#include "recursion-down.h"

int
main (void)
{
  for (int i = 0; i < 10; i++)
    for (int depth = 3; depth <= 5; depth++)
      down (depth, 16 * depth);
  return 0;
}

/* { dg-final { memprof-record fn=down<down<down<main alloc_count==10 total_size==480 } } */
/* { dg-final { memprof-record fn=down<down<down<down<main alloc_count==10 total_size==640 } } */
/* { dg-final { memprof-record fn=down<down<down<down<down<main alloc_count==10 total_size==800 } } */
/* { dg-final { memprof-dump-scan-not {recursion folded} } } */
