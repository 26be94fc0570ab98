/* An instrumented program calling third-party.c's uninstrumented code.  For
   uninstrumented.exp.  */
long third_work (void);

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 3; i++)
    s += third_work ();
  return s != 0 ? 0 : 1;
}
