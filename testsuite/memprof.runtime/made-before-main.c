/* A block made by an initializer before main and still live at exit (a
   library's or a program's static start-up state, like libstdc++'s
   emergency exception pool) is marked "made before main" in the
   report's flags: at the top of --sort=leaked it is not a leak that
   grows.  A block main leaks is not marked.  */
/* { dg-do run } */
/* { dg-options "-O1" } */

#include <stdlib.h>
#include <string.h>

char *table, *leaked;

__attribute__ ((constructor)) static void
make_table (void)
{
  table = malloc (4096);
  memset (table, 0, 4096);
}

int
main (void)
{
  leaked = malloc (100);
  leaked[0] = 1;
  return table[10];
}

/* { dg-final { memprof-dump-scan {^flags: +made before main \(an initializer\)\nat make_table } } } */
/* { dg-final { memprof-dump-scan-not {made before main[^\n]*\nat main } } } */
