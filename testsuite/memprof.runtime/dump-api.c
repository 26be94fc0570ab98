/* __memprof_profile_dump writes a complete profile now, as a new file;
   merging all of a process's dumps counts nothing twice: a live block
   reported by a dump is not reported again when freed.
   __memprof_profile_reset drops everything gathered so far, including
   the blocks live at that moment.  */
/* { dg-do run } */
/* { dg-options "-O2 -I%TOP_SRCDIR%/include" } */

#include <stdlib.h>
#include <memprof/memprof_interface.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

__attribute__ ((noinline)) char *
site_a (void)
{
  char *p = malloc (256);
  keep (p);
  return p;
}

__attribute__ ((noinline)) char *
site_live (void)
{
  char *p = malloc (128);
  keep (p);
  return p;
}

__attribute__ ((noinline)) char *
site_dropped (void)
{
  char *p = malloc (64);
  keep (p);
  return p;
}

/* One call site of site_a, so every site_a block has the same stack.  */
__attribute__ ((noinline)) void
churn_a (int n)
{
  for (int i = 0; i < n; i++)
    free (site_a ());
  keep (0);
}

int
main (void)
{
  /* churn_a is called from one line so all its blocks share a stack.  */
  static const int rounds[] = { 4, 2, 1, 3 };
  char *live = 0, *dropped = 0;
  for (int phase = 0; phase < 4; phase++)
    {
      if (phase == 2)
        dropped = site_dropped ();
      churn_a (rounds[phase]);
      switch (phase)
        {
        case 0:
          live = site_live ();
          if (__memprof_profile_dump () != 0)   /* 4 x site_a, site_live */
            return 1;
          free (live);
          break;
        case 1:
          if (__memprof_profile_dump () != 0)   /* 2 x site_a */
            return 1;
          break;
        case 2:
          __memprof_profile_reset ();            /* forgets 1 x site_a and
                                                    site_dropped */
          free (dropped);
          break;
        }
    }
  return 0;                                      /* exit: 3 x site_a */
}

/* { dg-final { memprof-profile-count 3 } } */
/* { dg-final { memprof-record fn=site_a<churn_a alloc_count==9 total_size==2304 } } */
/* { dg-final { memprof-record fn=site_live<main alloc_count==1 total_size==128 } } */
/* { dg-final { memprof-no-record fn=site_dropped<main } } */
