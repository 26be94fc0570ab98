/* Two rules of the sampling mode's calibration (site_calibration.h),
   at allocation wrappers' sites (the shape of cmark's xcalloc and
   libsass's node constructors), sample_interval=1048576:
   - a block of at least the interval is profiled with weight 1 and
     never scaled: buffer's three 6 MiB blocks from xmalloc are exact,
     where, sampled with p = 0.998 and scaled with the site's 100-byte
     and 3,000-byte blocks (small's 60,000 and medium's 6,000,
     sampled), one read "7.7 MB in 1 block, max 6.7 MB";
   - a site's first block stands only for itself: hot_first's block,
     long-lived and read 100,000 times, is the first of new_node's
     208-byte blocks (the others, churn's 20, are never sampled here:
     4 KiB at a 1 MiB interval), and keeps its count, bytes and
     accesses; churn's blocks are unattributed, not given its lifetime
     and 21 times its accesses.  */
/* { dg-do run } */
/* { dg-options "-O0" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=1048576:sample_seed=1" } */

#include <stdlib.h>
#include <string.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

__attribute__ ((noinline)) static void *
xmalloc (size_t size)
{
  void *p = malloc (size);
  if (!p)
    abort ();
  return p;
}

__attribute__ ((noinline)) static char *
new_node (void)
{
  return malloc (208);
}

__attribute__ ((noinline)) static char *
hot_first (void)
{
  return new_node ();
}

__attribute__ ((noinline)) static void
churn (void)
{
  for (int i = 0; i < 20; i++)
    {
      char *p = new_node ();
      keep (p);
      free (p);
    }
}

__attribute__ ((noinline)) static void
buffer (void)
{
  char *p = xmalloc ((size_t) 6 << 20);
  memset (p, 1, 64);
  keep (p);
  free (p);
}

__attribute__ ((noinline)) static void
small (void)
{
  for (int i = 0; i < 20000; i++)
    {
      char *p = xmalloc (100);
      keep (p);
      free (p);
    }
}

__attribute__ ((noinline)) static void
medium (void)
{
  for (int i = 0; i < 2000; i++)
    {
      char *p = xmalloc (3000);
      keep (p);
      free (p);
    }
}

int
main (void)
{
  volatile char *hot = hot_first ();
  churn ();
  long sum = 0;
  for (int i = 0; i < 100000; i++)
    sum += hot[i % 200];
  for (int i = 0; i < 3; i++)
    {
      buffer ();
      small ();
      medium ();
    }
  free ((void *) hot);
  return sum == 12345;
}

/* { dg-final { memprof-record fn=xmalloc<buffer alloc_count==3 total_size==18874368 max_size==6291456 } } */
/* { dg-final { memprof-record fn=new_node<hot_first alloc_count==1 total_size==208 total_access_count>=100000 total_access_count<=100100 } } */
/* { dg-final { memprof-no-record fn=new_node<churn } } */
/* churn's bytes; the allocations may include others (medium's and small's
   split is an estimate).  */
/* { dg-final { memprof-dump-scan {^Unattributed: [0-9,]+ allocations; 4,160 bytes: at sites} } } */
