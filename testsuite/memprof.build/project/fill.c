/* The shared library of the two-file project: writes and reads N ints
   of the caller's block (N unknown at compile time, so the loops stay
   scalar: 2 * N counted accesses).  */
int
fill (int *p, int n)
{
  int sum = 0;
  for (int i = 0; i < n; i++)
    p[i] = i;
  __asm__ volatile ("" : : "r" (p) : "memory");
  for (int i = 0; i < n; i++)
    sum += p[i];
  return sum;
}
