/* Blocks no instrumented code touches.  fopen's FILE (glibc declares
   fopen with the malloc attribute, so the plugin types its blocks as
   _IO_FILE) is allocated and used inside libc.so.6, which is not
   instrumented: the report says so instead of calling every field
   cold.  A struct the program allocates and never touches: no access
   counted, and no field singled out as cold either.  */
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <stdio.h>
#include <stdlib.h>

struct unused
{
  long a;
  char b[40];
};

struct unused *volatile keep;

int
main (void)
{
  for (int i = 0; i < 3; i++)
    {
      FILE *f = fopen ("/proc/self/status", "r");
      if (!f)
        return 1;
      char line[256];
      while (fgets (line, sizeof line, f))
        ;
      fclose (f);
    }
  keep = malloc (sizeof (struct unused));
  free (keep);
  return 0;
}

/* { dg-final { memprof-fields-scan {^suggestion: none: allocated inside libc\.so\.6, whose code is not instrumented: no access was counted$} --by-type } } */
/* { dg-final { memprof-fields-scan {^type: +_IO_FILE, \d+ bytes} --by-type } } */
/* { dg-final { memprof-fields-scan {^suggestion: no accesses counted in unused$} } } */
/* { dg-final { memprof-fields-scan-not {\[cold\]} } } */
