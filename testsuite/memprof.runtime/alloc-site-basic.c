/* Ten 256-byte blocks from one allocation site, each written once per
   64-byte granule: the simplest profile whose every count is known.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include <stdlib.h>

__attribute__ ((noinline)) static char *
make_block (void)
{
  return malloc (256);
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    {
      char *p = make_block ();
      for (int j = 0; j < 256; j += 64)
        p[j] = 1;
      free (p);
    }
  return 0;
}

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=make_block<main alloc_count==10 total_size==2560 min_size==256 max_size==256 } } */
/* { dg-final { memprof-record fn=make_block<main total_access_count==40 min_access_count==4 max_access_count==4 } } */
/* { dg-final { memprof-no-record fn=main } } */
/* { dg-final { memprof-dump-scan "make_block" } } */
