/* Structs of one and two words (mruby's mrb_value is a struct of one
   uintptr_t) copied whole between heap blocks, *dst = *src: in histogram
   mode each copy counts once in every slot it covers, read and written,
   now inline (their alignment is a slot's) where it was a call into the
   runtime (histogram-word-struct.c checks the code).  50 copies of
   each.  */
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include <stdint.h>
#include <stdlib.h>

struct value { uintptr_t w; };
struct pair { struct value a, b; };

__attribute__ ((noinline)) void
copy_value (struct value *dst, const struct value *src)
{
  *dst = *src;
}

__attribute__ ((noinline)) void
copy_pair (struct pair *dst, const struct pair *src)
{
  *dst = *src;
}

__attribute__ ((noinline)) struct value *
source_values (void)
{
  return calloc (16, sizeof (struct value));
}

__attribute__ ((noinline)) struct value *
copied_values (void)
{
  return calloc (16, sizeof (struct value));
}

__attribute__ ((noinline)) struct pair *
source_pairs (void)
{
  return calloc (16, sizeof (struct pair));
}

__attribute__ ((noinline)) struct pair *
copied_pairs (void)
{
  return calloc (16, sizeof (struct pair));
}

int
main (void)
{
  struct value *sv = source_values (), *cv = copied_values ();
  struct pair *sp = source_pairs (), *cp = copied_pairs ();
  for (int i = 0; i < 50; i++)
    {
      copy_value (&cv[i % 16], &sv[i % 16]);
      copy_pair (&cp[i % 16], &sp[i % 16]);
    }
  free (sv);
  free (cv);
  free (sp);
  free (cp);
  return 0;
}

/* { dg-final { memprof-record fn=source_values type.size==8 fields(w).accesses==50 } } */
/* { dg-final { memprof-record fn=copied_values type.size==8 fields(w).accesses==50 } } */
/* { dg-final { memprof-record fn=source_pairs type.size==16 fields(a.w).accesses==50 fields(b.w).accesses==50 } } */
/* { dg-final { memprof-record fn=copied_pairs type.size==16 fields(a.w).accesses==50 fields(b.w).accesses==50 } } */
