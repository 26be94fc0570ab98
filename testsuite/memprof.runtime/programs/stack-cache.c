/* Allocation stacks the unwinder's stack cache (stack_cache.h) must
   give exactly as a full walk does: a deep chain whose levels allocate
   at every depth (stacks differing only in their innermost frames), a
   recursion with two recursive call sites, frames moved by alloca, an
   allocation from a callback of glibc's qsort (frames without frame
   pointers, stepped by their CFI), a function without a frame pointer
   keeping data in rbp, and one stack slot reused by another
   call chain at the same depth: leaf's and mid's frames are at the same
   addresses with the same return addresses under left_path and
   right_path, which differ only further out.  ROUNDS is argv[1].  */

#include <alloca.h>
#include <stdlib.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

static unsigned long rng = 88172645463325252UL;

static unsigned long
next_random (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* The deep chain.  */
#include "stack-chain.h"

/* The recursion: a random path of left and right calls.  */
__attribute__ ((noinline)) static void
descend (int depth)
{
  if (depth == 0)
    {
      char *p = malloc (48);
      keep (p);
      free (p);
      return;
    }
  if (next_random () & 1)
    descend (depth - 1);
  else
    descend (depth - 1);
  keep (0);
}

/* The reused slot.  */
__attribute__ ((noinline)) static void
leaf (void)
{
  char *p = malloc (72);
  keep (p);
  free (p);
}

__attribute__ ((noinline)) static void
mid (void)
{
  leaf ();
  keep (0);
}

__attribute__ ((noinline, noipa)) static void
left_path (void)
{
  mid ();
  keep (0);
}

__attribute__ ((noinline, noipa)) static void
right_path (void)
{
  mid ();
  keep (1);
}

/* Frames moved by alloca: same return addresses, other addresses.  */
__attribute__ ((noinline)) static void
padded (size_t pad)
{
  char *buf = alloca (pad);
  keep (buf);
  leaf ();
}

/* A function without a frame pointer that keeps data in rbp across its
   call (as code built without frame pointers may): the rbp its callee
   saves is that data, a new value every round, and no step uses it
   (rbp_as_data's own CFI restores rbp before its caller's step needs
   it).  The call is made from asm, after a real call so that GCC keeps
   the stack aligned for calls.  */
__attribute__ ((noipa)) void
rbp_leaf (void)
{
  char *p = malloc (40);
  keep (p);
  free (p);
}

__attribute__ ((noipa)) static void
nothing (void)
{
}

__attribute__ ((noipa, optimize ("omit-frame-pointer"))) static void
rbp_as_data (unsigned long data)
{
  nothing ();
  __asm__ volatile ("mov %0, %%rbp\n\tcall rbp_leaf"
                    : : "r" (data)
                    : "rbp", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                      "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
                      "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
                      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc",
                      "memory");
}

/* A callback of qsort.  */
static int
compare_allocating (const void *a, const void *b)
{
  char *p = malloc (24);
  keep (p);
  free (p);
  return *(const int *) a - *(const int *) b;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 0;
  for (int r = 0; r < rounds; r++)
    {
      level_12 ();
      descend (1 + (int) (next_random () % 12));
      /* Right then right, left then right, left then left: 300 left
         and 300 right, and left's frames reused by right 100 times.
         One call site each (the loop is not unrolled).  */
      int left[2] = { r % 3 != 0, r % 3 == 2 };
#pragma GCC unroll 1
      for (int t = 0; t < 2; t++)
        if (left[t])
          left_path ();
        else
          right_path ();
      padded (r % 3 == 0 ? 32 : 2048);
      rbp_as_data (next_random ());
      int v[4] = { 3, 1, 2, r };
      qsort (v, 4, sizeof v[0], compare_allocating);
    }
  return 0;
}
