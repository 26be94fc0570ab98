/* In histogram mode a struct of one or two words copied whole (*dst =
   *src; mruby's mrb_value is such a struct) is counted inline in the
   slots it covers, which its alignment determines; only an aggregate
   whose slots are unknown (aligned to less than a slot, or larger than
   a granule) calls the runtime to find them.  fields-word-struct-O2.c
   checks the counts.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include <stdint.h>

struct value { uintptr_t w; };
struct pair { struct value a, b; };
struct ints { int x, y, z; };

void
copy_value (struct value *dst, const struct value *src)
{
  *dst = *src;
}

void
copy_pair (struct pair *dst, const struct pair *src)
{
  *dst = *src;
}

void
copy_ints (struct ints *dst, const struct ints *src)
{
  *dst = *src;
}

/* Only copy_ints' load and store (a 12-byte struct aligned to 4).  */
/* { dg-final { scan-assembler-times "call\\t__memprof_record_access_range" 2 } } */
