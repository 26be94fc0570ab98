// No frame in the runtime's own code is ever recorded.  A failing
// operator new throws std::bad_alloc: libstdc++'s __cxa_allocate_exception
// then calls malloc from inside our operator new.  That exception object
// is recorded with __cxa_allocate_exception as frame 0 (the caller of
// malloc) and the program's frames after it, without operator new or any
// other runtime function in between.
// { dg-do run }
// { dg-options "-O2" }

#include <cstddef>
#include <new>

volatile std::size_t huge = (std::size_t) 1 << 45;   // More than the runtime serves.

__attribute__ ((noinline)) static int
thrower ()
{
  try
    {
      char *p = new char[huge];
      __asm__ volatile ("" : : "r"(p) : "memory");
      delete[] p;
      return 1;
    }
  catch (const std::bad_alloc &)
    {
      return 0;
    }
}

int
main ()
{
  return thrower ();
}

// thrower is static: no linkage name, named with its parameters.
// { dg-final { memprof-record fn=__cxa_allocate_exception<thrower()<main alloc_count==1 } }
// { dg-final { memprof-dump-scan-not "operator new" } }
// { dg-final { memprof-dump-scan-not "libmemprof" } }
