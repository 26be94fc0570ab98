/* Recursion folded by default: a return address that occurs again
   further out in a stack is kept once, at its outermost occurrence,
   marked [recursion folded].  Direct recursion (down), mutual recursion
   (ping/pong), a cycle of three (tri_a/tri_b/tri_c: the runtime finds a
   frame repeating one of the last two kept by another path than one
   repeating an older one), and a call reached without recursion (one
   level of down: no address repeats) must give one context each, with
   every block's count and bytes.  The runtime's own report (print_text=1) marks the
   folded frames too.  */
/* { dg-do run } */
/* { dg-options "-O0" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "print_text=1" } */
/* { dg-output "    #1 0x\[0-9a-f\]+ \[^\n\]*\\\[recursion folded\\\]\n    #2 " } */

#include "recursion-down.h"

__attribute__ ((noinline)) static void pong (int depth);

__attribute__ ((noinline)) static void
ping (int depth)
{
  if (depth > 1)
    pong (depth - 1);
  else
    {
      char *p = malloc (48);
      keep (p);
      free (p);
    }
}

__attribute__ ((noinline)) static void
pong (int depth)
{
  ping (depth - 1);
}

__attribute__ ((noinline)) static void tri_b (int depth);
__attribute__ ((noinline)) static void tri_c (int depth);

__attribute__ ((noinline)) static void
tri_a (int depth)
{
  if (depth > 1)
    tri_b (depth - 1);
  else
    {
      char *p = malloc (40);
      keep (p);
      free (p);
    }
}

__attribute__ ((noinline)) static void
tri_b (int depth)
{
  tri_c (depth);
}

__attribute__ ((noinline)) static void
tri_c (int depth)
{
  tri_a (depth);
}

/* Three or more levels of down: its recursive call site is active at
   least twice.  */
__attribute__ ((noinline)) static void
deep_entry (void)
{
  for (int depth = 3; depth <= 12; depth++)
    down (depth, 16 * depth);
}

__attribute__ ((noinline)) static void
flat_entry (void)
{
  down (1, 8);
}

/* ping reached at odd depths from 5: both call sites repeat.  */
__attribute__ ((noinline)) static void
mutual_entry (void)
{
  for (int depth = 5; depth <= 15; depth += 2)
    ping (depth);
}

/* tri_a at depths 3 to 8: the cycle's three call sites are all active
   at least twice.  */
__attribute__ ((noinline)) static void
three_entry (void)
{
  for (int depth = 3; depth <= 8; depth++)
    tri_a (depth);
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    {
      deep_entry ();
      flat_entry ();
      mutual_entry ();
      three_entry ();
    }
  return 0;
}

/* 10 x depths 3..12: 100 blocks of 16 * (3 + ... + 12) = 1200 bytes each round.  */
/* { dg-final { memprof-record fn=down<down<deep_entry<main alloc_count==100 total_size==12000 } } */
/* { dg-final { memprof-no-record fn=down<down<down } } */
/* { dg-final { memprof-record fn=down<flat_entry<main alloc_count==10 total_size==80 } } */
/* 10 x 6 depths.  */
/* { dg-final { memprof-record fn=ping<pong<ping<mutual_entry<main alloc_count==60 total_size==2880 } } */
/* { dg-final { memprof-no-record fn=ping<pong<ping<pong } } */
/* 10 x 6 depths.  */
/* { dg-final { memprof-record fn=tri_a<tri_c<tri_b<tri_a<three_entry<main alloc_count==60 total_size==2400 } } */
/* { dg-final { memprof-no-record fn=tri_a<tri_c<tri_b<tri_a<tri_c } } */
/* { dg-final { memprof-dump-scan {^by down \(.*recursion-down.h:12:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan {^by pong \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan {^by ping \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan {^by tri_c \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan {^by tri_b \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan-not {^by (deep_entry|flat_entry|mutual_entry|three_entry|main) .*recursion folded} } } */
