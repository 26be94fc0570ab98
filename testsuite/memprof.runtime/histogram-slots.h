/* Histogram mode (-fheapprof-histogram): known accesses to known 8-byte
   slots of blocks from one context give known per-slot counts, summed
   over the context's blocks.  Volatile accesses keep every access at
   every optimization level.  Included by histogram-slots-O0.c,
   histogram-slots-O2.c and histogram-slots-gimple-O2.c.

   struct rec is 80 bytes, 10 slots: slot 0 HOT, 1 WARM, 2 BIG, 3..8
   COLD (never touched), 9 TAIL.  Three blocks:
     hot   300 reads + 300 writes per block: 1800  (> 255)
     warm  1 write + 1 read per block: 6
     big   70000 increments (read + write) in block 0 only: 140000
           (> 65535)
     tail  1 write per block: 3  */

#include <stdlib.h>

struct rec
{
  volatile long hot;
  volatile long warm;
  volatile long big;
  long cold[6];
  volatile long tail;
};

__attribute__ ((noinline, noclone)) struct rec *
make_rec (void)
{
  struct rec *r = malloc (sizeof *r);
  __asm__ volatile ("" : : "r" (r) : "memory");
  return r;
}

int
main (void)
{
  long s = 0;
  for (int k = 0; k < 3; k++)
    {
      struct rec *r = make_rec ();
      for (int i = 0; i < 300; i++)
	r->hot = r->hot + i;
      r->warm = k;
      s += r->warm;
      if (k == 0)
	for (int i = 0; i < 70000; i++)
	  r->big = r->big + 1;
      r->tail = s;
      free (r);
    }
  return s == 3 ? 0 : 1;
}
