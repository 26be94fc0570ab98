/* A block the C library allocates and uses itself: fopen's FILE, which
   only libc.so.6's uninstrumented code touches.  The report does not
   call it unused outright, but unused by instrumented code, and says
   where it was allocated; a block of the program's own that nobody
   touches stays plainly "never accessed".  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#include <stdio.h>
#include <stdlib.h>

static void *volatile sink;

int
main (void)
{
  for (int i = 0; i < 3; i++)
    {
      FILE *f = fopen ("/dev/null", "r");
      if (!f)
        return 1;
      fclose (f);
    }
  sink = malloc (100);
  free (sink);
  return 0;
}

/* { dg-final { memprof-dump-scan {^flags: +never accessed by instrumented code \(allocated inside libc\.so\.6\)(, short-lived)?$} } } */
/* { dg-final { memprof-dump-scan {^flags: +never accessed$} } } */
