// The first object of the runtime: marks where its code begins, so the
// unwinder can leave the runtime's own frames out of recorded stacks.
// Makefile.am links it first and text_end.cpp last; the runtime is built
// so all of its code goes to .text (no hot/cold or startup sections),
// which the linker lays out in link order.

extern "C" __attribute__ ((used, noinline, visibility ("hidden"))) void
__memprof_text_begin ()
{
  __asm__ volatile ("");
}
