/* Every instrumented unit gets a priority-1 constructor calling the
   runtime's link-check function (its one strong reference to the
   runtime; the shadow base is referenced weakly), and with -fheapprof=DIR
   a weak __memprof_profile_dir holding DIR.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fheapprof=/some/profile/dir" } */

int
get (int *p)
{
  return *p;
}

/* { dg-final { scan-assembler "\\.init_array\\.00001" } } */
/* { dg-final { scan-assembler "call\\t__memprof_runtime_v1_missing__link_with_fheapprof" } } */
/* { dg-final { scan-assembler "\\.weak\\t__memprof_shadow_memory_dynamic_address" } } */
/* { dg-final { scan-assembler "\\.weak\\t__memprof_profile_dir" } } */
/* { dg-final { scan-assembler "\\.string\\t\"/some/profile/dir\"" } } */
