// Weak fallbacks for TCMalloc's hot/cold operator new overloads, which
// -fheapprof-use's calls to cold and hot allocation sites name (the
// trailing __hot_cold_t: 0..127 cold, 128..255 hot).  With TCMalloc
// linked, its definitions win (a shared library listed before this
// archive, or a static one: this member is then never pulled in); with
// any other allocator these forward to the ordinary operator new, and
// the hint is dropped: the program behaves as built without it.
#include <cstddef>
#include <cstdint>
#include <new>

enum class __hot_cold_t : uint8_t;

#define MEMPROF_WEAK __attribute__ ((weak))

MEMPROF_WEAK void *
operator new (std::size_t size, __hot_cold_t)
{
  return ::operator new (size);
}

MEMPROF_WEAK void *
operator new[] (std::size_t size, __hot_cold_t)
{
  return ::operator new[] (size);
}

MEMPROF_WEAK void *
operator new (std::size_t size, const std::nothrow_t &nt,
              __hot_cold_t) noexcept
{
  return ::operator new (size, nt);
}

MEMPROF_WEAK void *
operator new[] (std::size_t size, const std::nothrow_t &nt,
                __hot_cold_t) noexcept
{
  return ::operator new[] (size, nt);
}

MEMPROF_WEAK void *
operator new (std::size_t size, std::align_val_t al, __hot_cold_t)
{
  return ::operator new (size, al);
}

MEMPROF_WEAK void *
operator new[] (std::size_t size, std::align_val_t al, __hot_cold_t)
{
  return ::operator new[] (size, al);
}

MEMPROF_WEAK void *
operator new (std::size_t size, std::align_val_t al,
              const std::nothrow_t &nt, __hot_cold_t) noexcept
{
  return ::operator new (size, al, nt);
}

MEMPROF_WEAK void *
operator new[] (std::size_t size, std::align_val_t al,
                const std::nothrow_t &nt, __hot_cold_t) noexcept
{
  return ::operator new[] (size, al, nt);
}
