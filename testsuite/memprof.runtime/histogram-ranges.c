/* Histogram mode: range accesses (memset, memcpy, strlen) add one to
   every 8-byte slot they overlap (range_access.h), and a block longer
   than 4 KiB has a histogram of its first 512 slots.  Sizes go through
   volatiles so the calls stay calls at -O2.  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include <stdlib.h>
#include <string.h>

#define ALLOCATOR(name, size)				\
  __attribute__ ((noinline, noclone)) char *		\
  name (void)						\
  {							\
    char *p = malloc (size);				\
    __asm__ volatile ("" : : "r" (p) : "memory");	\
    return p;						\
  }
ALLOCATOR (make_text, 100)
ALLOCATOR (make_copy, 64)
ALLOCATOR (make_big, 8192)

volatile size_t n_text = 99, n_part = 20, n_copy = 64, n_big = 8192;

int
main (void)
{
  char *text = make_text ();
  memset (text, 'x', n_text);		/* bytes 0-98: slots 0-12 */
  text[n_text] = 0;			/* slot 12 */
  __asm__ volatile ("" : : "r" (text) : "memory");
  size_t len = strlen (text);		/* bytes 0-99: slots 0-12 */
  memset (text + 4, 'y', n_part);	/* bytes 4-23: slots 0-2 */
  char *copy = make_copy ();
  memcpy (copy, text + 8, n_copy);	/* text 8-71: slots 1-8; copy 0-7 */
  char *big = make_big ();
  memset (big, 0, n_big);		/* 1024 slots, 512 kept */
  /* Keep the memset: the block is freed unread.  */
  __asm__ volatile ("" : : "r" (big) : "memory");
  int ok = len == 99;
  free (text);
  free (copy);
  free (big);
  return !ok;
}

/* { dg-final { memprof-record fn=make_text<main histogram_slots==13 histogram.0==3 histogram.1==4 histogram.2==4 histogram.3==3 histogram.8==3 } } */
/* { dg-final { memprof-record fn=make_text<main histogram.9==2 histogram.11==2 histogram.12==3 total_access_count==38 min_percent_utilized==100 } } */
/* { dg-final { memprof-record fn=make_copy<main histogram_slots==8 histogram.0==1 histogram.7==1 total_access_count==8 } } */
/* { dg-final { memprof-record fn=make_big<main histogram_slots==512 histogram.0==1 histogram.511==1 total_access_count==1024 } } */
