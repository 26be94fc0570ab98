/* Every instrumented unit gets a priority-1 constructor calling
   __memprof_init and the ABI version check, and with -fheapprof=DIR a
   weak __memprof_profile_dir holding DIR.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fheapprof=/some/profile/dir" } */

int
get (int *p)
{
  return *p;
}

/* { dg-final { scan-assembler "\\.init_array\\.00001" } } */
/* { dg-final { scan-assembler "call\\t__memprof_init" } } */
/* { dg-final { scan-assembler "__memprof_version_mismatch_check_v1" } } */
/* { dg-final { scan-assembler "\\.weak\\t__memprof_profile_dir" } } */
/* { dg-final { scan-assembler "\\.string\\t\"/some/profile/dir\"" } } */
