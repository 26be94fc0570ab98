/* Recursion folded by default: a return address that occurs again
   further in a stack closes a cycle; the frames inside it are cut out
   and the address's outermost frame is marked [recursion folded].
   Direct recursion (down), mutual recursion (ping/pong), a cycle of
   three (tri_a/tri_b/tri_c: the runtime finds a frame repeating one of
   the last two kept by another path than one repeating an older one),
   a re-entry through a callback (call_fn/dispatch/callback: what is left
   must be calls the program made, not callback calling dispatch) and a
   call reached without recursion (one level of down: no address
   repeats) must give one context each, with every block's count and
   bytes.  The runtime's own report (print_text=1) marks the folded
   frames too.  */
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

/* An interpreter's re-entry: call_fn runs dispatch, whose first call
   runs a callback that calls call_fn again; the inner dispatch
   allocates.  The stack is main > reentry_entry > call_fn > dispatch >
   callback > call_fn > dispatch > leaf: call_fn's call of dispatch is
   active twice, and cutting the cycle between leaves main >
   reentry_entry > call_fn [folded] > dispatch > leaf.  */
__attribute__ ((noinline)) static void call_fn (int nested);

__attribute__ ((noinline)) static void
leaf (void)
{
  char *p = malloc (24);
  keep (p);
  free (p);
}

__attribute__ ((noinline)) static void
callback (void)
{
  call_fn (0);
  __asm__ volatile ("");
}

__attribute__ ((noinline)) static void
dispatch (int nested)
{
  if (nested)
    callback ();
  else
    leaf ();
  __asm__ volatile ("");
}

__attribute__ ((noinline)) static void
call_fn (int nested)
{
  dispatch (nested);
  __asm__ volatile ("");
}

__attribute__ ((noinline)) static void
reentry_entry (void)
{
  call_fn (1);
  __asm__ volatile ("");
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
      reentry_entry ();
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
/* 10 blocks of 24 bytes, under real calls only.  */
/* { dg-final { memprof-record fn=leaf<dispatch<call_fn<reentry_entry<main alloc_count==10 total_size==240 } } */
/* { dg-final { memprof-no-record fn=leaf<dispatch<callback } } */
/* { dg-final { memprof-dump-scan {^by down \(.*recursion-down.h:12:[0-9]+\) \[recursion folded\]$} } } */
/* Each cycle's outermost frame is marked, the cycle's other frames
   cut out: ping's call of pong, tri_a's call of tri_b, call_fn's call of
   dispatch; pong, tri_b, tri_c, dispatch and callback never marked.  */
/* { dg-final { memprof-dump-scan {^by ping \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan {^by tri_a \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan {^by call_fn \(.*recursion-fold.c:[0-9]+:[0-9]+\) \[recursion folded\]$} } } */
/* { dg-final { memprof-dump-scan-not {^(at|by) (pong|tri_b|tri_c|dispatch|callback) .*recursion folded} } } */
/* { dg-final { memprof-dump-scan-not {^by (deep_entry|flat_entry|mutual_entry|three_entry|reentry_entry|main) .*recursion folded} } } */
