/* Program for symbolize.exp: nodebug_fn, a function written in asm
   with call frame information but no debug information, placed (with
   -fno-toplevel-reorder) right after described_fn, which has both.  The
   line table's last row before nodebug_fn is described_fn's, and libdw
   gives it for addresses in nodebug_fn as it gave duktape's _start
   (built without debug information after a unit's code) the last line
   of duk_heap_memory.c.  The allocation's stack goes through
   nodebug_fn; two more go through nodebug_twice of
   sym-nodebug-lib.c, a library.  argv[1] is the raw profile to
   write.  */
#include "rawgen.h"

__attribute__ ((noinline)) void
site (void)
{
  rawgen_alloc (64, 1, 5, 50);
}

__attribute__ ((noinline)) int
described_fn (int x)
{
  return x * 3 + 1;
}

__asm__ (".text\n"
	 "\t.globl nodebug_fn\n"
	 "\t.type nodebug_fn, @function\n"
	 "nodebug_fn:\n"
	 "\t.cfi_startproc\n"
	 "\tpushq %rbp\n"
	 "\t.cfi_def_cfa_offset 16\n"
	 "\t.cfi_offset 6, -16\n"
	 "\tmovq %rsp, %rbp\n"
	 "\t.cfi_def_cfa_register 6\n"
	 "\tcall site\n"
	 "\tnop\n"
	 "\tpopq %rbp\n"
	 "\t.cfi_def_cfa 7, 8\n"
	 "\tret\n"
	 "\t.cfi_endproc\n"
	 "\t.size nodebug_fn, .-nodebug_fn\n");

void nodebug_fn (void);
void nodebug_twice (void (*) (void));

int
main (int argc, char **argv)
{
  nodebug_fn ();
  nodebug_twice (site);
  if (described_fn (argc) == 0)
    return 1;
  rawgen_write (argv[1]);
  return 0;
}
