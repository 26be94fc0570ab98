/* MEMPROF_OPTIONS=print_text=1 prints the contexts largest total size
   first (it printed them in the HIB table's hash order), each with its
   size line and frame 0; with -rdynamic the frames name the exported
   functions.  Five sites, made in an order that is none of the sorted
   ones.  */
/* { dg-do run } */
/* { dg-options "-O2 -rdynamic" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "print_text=1" } */

#include <stdlib.h>

#define SITE(name)                                        \
  __attribute__ ((noinline)) void name (size_t n)         \
  {                                                       \
    char *p = malloc (n);                                 \
    __asm__ volatile ("" : : "r"(p) : "memory");          \
    free (p);                                             \
  }

SITE (site_100)
SITE (site_2000)
SITE (site_30)
SITE (site_700)
SITE (site_5000)

int
main (void)
{
  site_100 (100);
  site_30 (30);
  for (volatile int i = 0; i < 2; i++)
    site_2000 (1000);
  site_700 (700);
  site_5000 (5000);
  return 0;
}

/* { dg-output "memprof: profile of pid \[0-9\]+ \\(dump 0\\): 5 allocation contexts\n" } */
/* { dg-output "context \[0-9\]+: alloc_count 1\n  size \\(total/min/avg/max\\): 5000 5000 5000 5000\n\[^\n\]*\n\[^\n\]*\n\[^\n\]*\n\[^\n\]*\n    #0 0x\[0-9a-f\]+ print-text-order\[^ \]*\\+0x\[0-9a-f\]+ \\(site_5000\\)\n.*" } */
/* { dg-output "context \[0-9\]+: alloc_count 2\n  size \\(total/min/avg/max\\): 2000 1000 1000 1000\n.*\\(site_2000\\)\n.*" } */
/* { dg-output "context \[0-9\]+: alloc_count 1\n  size \\(total/min/avg/max\\): 700 700 700 700\n.*\\(site_700\\)\n.*" } */
/* { dg-output "context \[0-9\]+: alloc_count 1\n  size \\(total/min/avg/max\\): 100 100 100 100\n.*\\(site_100\\)\n.*" } */
/* { dg-output "context \[0-9\]+: alloc_count 1\n  size \\(total/min/avg/max\\): 30 30 30 30\n.*\\(site_30\\)\n" } */
