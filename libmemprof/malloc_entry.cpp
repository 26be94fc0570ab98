// The C allocation functions.  Each passes its own frame address down so
// the recorded stack starts at its caller.

#include "runtime.h"
#include "sampling_heap.h"

#include <errno.h>
#include <stddef.h>

using namespace memprof;

namespace {

inline bool
power_of_two (size_t x)
{
  return x && !(x & (x - 1));
}

inline bool
mul_overflows (size_t a, size_t b, size_t *out)
{
  return __builtin_mul_overflow (a, b, out);
}

} // namespace

extern "C" {

MEMPROF_NOINLINE static void *
malloc_profiled (size_t size)
{
  return allocate (size, kLibcMallocAlign, MEMPROF_FRAME, false);
}

MEMPROF_EXPORT MEMPROF_FAST_ENTRY void *
malloc (size_t size)
{
  if (unsampled_at_entry (size, MEMPROF_CALLER_SITE))
    return libc_heap.malloc (size);
  return malloc_profiled (size);
}

MEMPROF_EXPORT MEMPROF_FAST_ENTRY void
free (void *p)
{
  free_entry (p);
}

MEMPROF_EXPORT MEMPROF_FAST_ENTRY void
cfree (void *p)
{
  free_entry (p);
}

MEMPROF_NOINLINE static void *
calloc_profiled (size_t n, size_t size)
{
  size_t total;
  if (mul_overflows (n, size, &total))
    {
      errno = ENOMEM;
      return nullptr;
    }
  return allocate (total, kLibcMallocAlign, MEMPROF_FRAME, true);
}

MEMPROF_EXPORT MEMPROF_FAST_ENTRY void *
calloc (size_t n, size_t size)
{
  size_t total;
  if (!mul_overflows (n, size, &total)
      && unsampled_at_entry (total, MEMPROF_CALLER_SITE))
    return libc_heap.calloc (n, size);
  return calloc_profiled (n, size);
}

MEMPROF_EXPORT void *
realloc (void *p, size_t size)
{
  return reallocate (p, size, MEMPROF_FRAME);
}

MEMPROF_EXPORT void *
reallocarray (void *p, size_t n, size_t size)
{
  size_t total;
  if (mul_overflows (n, size, &total))
    {
      errno = ENOMEM;
      return nullptr;
    }
  return reallocate (p, total, MEMPROF_FRAME);
}

MEMPROF_EXPORT void *
memalign (size_t align, size_t size)
{
  // glibc rounds a non-power-of-two alignment up to a power of two.
  if (!power_of_two (align))
    {
      if (align > ((size_t) 1 << 62))
        {
          errno = EINVAL;
          return nullptr;
        }
      size_t a = 1;
      while (a < align)
        a <<= 1;
      align = a;
    }
  return allocate (size, align, MEMPROF_FRAME, false);
}

MEMPROF_EXPORT void *
__libc_memalign (size_t align, size_t size)
{
  if (!power_of_two (align))
    {
      errno = EINVAL;
      return nullptr;
    }
  return allocate (size, align, MEMPROF_FRAME, false);
}

MEMPROF_EXPORT void *
aligned_alloc (size_t align, size_t size)
{
  if (!power_of_two (align))
    {
      errno = EINVAL;
      return nullptr;
    }
  return allocate (size, align, MEMPROF_FRAME, false);
}

MEMPROF_EXPORT int
posix_memalign (void **out, size_t align, size_t size)
{
  if (!power_of_two (align) || align % sizeof (void *))
    return EINVAL;
  int saved = errno;
  void *p = allocate (size, align, MEMPROF_FRAME, false);
  errno = saved;   // posix_memalign reports through its result only.
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

MEMPROF_EXPORT void *
valloc (size_t size)
{
  return allocate (size, kPageSize, MEMPROF_FRAME, false);
}

MEMPROF_EXPORT void *
pvalloc (size_t size)
{
  size_t rounded = round_up (size ? size : 1, kPageSize);
  if (rounded < size)
    {
      errno = ENOMEM;
      return nullptr;
    }
  return allocate (rounded, kPageSize, MEMPROF_FRAME, false);
}

MEMPROF_EXPORT size_t
malloc_usable_size (void *p)
{
  return usable_size (p);
}

} // extern "C"
