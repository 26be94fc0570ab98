// The jemalloc route's cold operator new and new[] (plain and nothrow):
// a block from the cold arena (jemalloc_cold_arena.c), with operator
// new's contract: never null, std::bad_alloc after the new-handler gives
// up (nothrow: null).  Any operator delete frees it: libstdc++'s calls
// free (), jemalloc's own calls its sdallocx; both take blocks of any
// arena.
#include <cstddef>
#include <new>

extern "C" {
void *mallocx (std::size_t size, int flags);
int __memprof_jemalloc_cold_flags (void);
}

extern "C" void *
__memprof_jemalloc_cold_new (std::size_t size)
{
  for (;;)
    {
      if (void *p = mallocx (size ? size : 1,
                             __memprof_jemalloc_cold_flags ()))
        return p;
      std::new_handler handler = std::get_new_handler ();
      if (!handler)
        throw std::bad_alloc ();
      handler ();
    }
}

extern "C" void *
__memprof_jemalloc_cold_new_nothrow (std::size_t size) noexcept
{
  try
    {
      return __memprof_jemalloc_cold_new (size);
    }
  catch (...)
    {
      return nullptr;
    }
}
