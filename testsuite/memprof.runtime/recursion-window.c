/* With folding, a walk reads up to twice stack_depth frames and folds
   them before cutting the stack to stack_depth: a recursion that would
   have filled stack_depth keeps its callers (main, no [stack cut
   here]) once folded.  At stack_depth=8 the walk reads 16 frames:
   down 8 deep under shallow_entry, main and libc's three start frames
   is 13, folded to 7.  deep_down 40 deep under deep_entry passes 16:
   its stack is cut, and says so.  */
/* { dg-do run } */
/* { dg-options "-O0" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "stack_depth=8" } */

#include "recursion-down.h"

__attribute__ ((noinline)) static void
shallow_entry (void)
{
  for (int depth = 3; depth <= 8; depth++)
    down (depth, 8 * depth);
}

__attribute__ ((noinline)) static void
deep_down (int depth)
{
  if (depth > 1)
    deep_down (depth - 1);
  else
    {
      char *p = malloc (1000);
      keep (p);
      free (p);
    }
}

__attribute__ ((noinline)) static void
deep_entry (void)
{
  deep_down (40);
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    {
      shallow_entry ();
      deep_entry ();
    }
  return 0;
}

/* 10 x depths 3..8: 60 blocks of 8 * (3 + ... + 8) = 264 bytes a round,
   down, down [folded], shallow_entry, main and libc's three.  */
/* { dg-final { memprof-record fn=down<down<shallow_entry<main alloc_count==60 total_size==2640 num_frames==7 } } */
/* { dg-final { memprof-record fn=deep_down<deep_down alloc_count==10 total_size==10000 num_frames==2 } } */
/* { dg-final { memprof-dump-scan {^by main \(.*recursion-window.c:[0-9]+:[0-9]+( discriminator [0-9]+)?\)$} } } */
/* { dg-final { memprof-dump-scan {^by deep_down \(.*\) \[recursion folded\] \[stack cut here\]$} } } */
/* { dg-final { memprof-dump-scan-not {^by (shallow_entry|main) .*stack cut here} } } */
