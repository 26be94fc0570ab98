// The last object of the runtime: marks where its code ends (see
// text_begin.cpp).

extern "C" __attribute__ ((used, noinline, visibility ("hidden"))) void
__memprof_text_end ()
{
  __asm__ volatile ("");
}
