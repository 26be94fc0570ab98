/* Without a directory, no __memprof_profile_dir: the runtime uses the
   working directory.  The constructor is still there.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fheapprof" } */

int
get (int *p)
{
  return *p;
}

/* { dg-final { scan-assembler-not "__memprof_profile_dir" } } */
/* { dg-final { scan-assembler "call\\t__memprof_runtime_v1_missing__link_with_fheapprof" } } */
