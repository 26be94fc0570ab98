/* A block live across a reset is dropped from the profile, also when
   the resets wrap the runtime's 16-bit epoch counter: after exactly
   65,536 resets the old block's epoch equals the current one again, and
   without the runtime's sweep its free would be reported.  The block
   allocated afterwards is reported as usual.  */
/* { dg-do run } */
/* { dg-options "-O2 -I%TOP_SRCDIR%/include" } */

#include <stdlib.h>
#include <memprof/memprof_interface.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

__attribute__ ((noinline)) static char *
old_site (void)
{
  char *p = malloc (100);
  keep (p);
  return p;
}

__attribute__ ((noinline)) static char *
new_site (void)
{
  char *p = malloc (200);
  keep (p);
  return p;
}

int
main (void)
{
  char *a = old_site ();
  for (long i = 0; i < 65536; i++)
    __memprof_profile_reset ();
  char *b = new_site ();
  a[0] = 1;
  b[0] = 1;
  free (a);
  free (b);
  return 0;
}

/* { dg-final { memprof-no-record fn=old_site } } */
/* { dg-final { memprof-record fn=new_site alloc_count==1 total_size==200 } } */
