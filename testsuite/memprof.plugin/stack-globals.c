/* -fplugin-arg-memprof-stack and -globals turn on what is skipped by
   default: accesses to locals in memory and to globals by name.  */
/* { dg-do compile } */
/* { dg-options "-O0 -fplugin-arg-memprof-stack -fplugin-arg-memprof-globals -fplugin-arg-memprof-stats" } */

int global_array[8];

int
both (int i)
{
  int local[8];
  local[i & 7] = i;
  global_array[i & 7] = local[(i + 1) & 7];
  return global_array[0];
}

/* { dg-final { scan-compiler-output "memprof: both: 4 instrumented, 0 skipped" } } */
