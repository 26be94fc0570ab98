// Every C++ operator new and delete.  The runtime does not link with
// libstdc++: on failure the throwing forms call the program's new
// handler and throw std::bad_alloc through weak references that resolve
// when the program is C++ (the only programs that call these), and
// abort with a message otherwise.

#include "runtime.h"
#include "sampling_heap.h"

#include <stddef.h>

using namespace memprof;

namespace std {
enum class align_val_t : size_t;
struct nothrow_t;
} // namespace std

extern "C" {
void *__cxa_allocate_exception (size_t) __attribute__ ((weak));
void __cxa_throw (void *, void *, void (*) (void *)) __attribute__ ((weak));
// typeinfo, vtable and destructor of std::bad_alloc.
extern char _ZTISt9bad_alloc[] __attribute__ ((weak));
extern char _ZTVSt9bad_alloc[] __attribute__ ((weak));
void _ZNSt9bad_allocD1Ev (void *) __attribute__ ((weak));
// std::get_new_handler ().
typedef void (*new_handler_fn) ();
new_handler_fn _ZSt15get_new_handlerv () __attribute__ ((weak));
}

namespace {

// The new handler may free memory and return (retry), or throw.  With no
// handler, throw std::bad_alloc.
bool
handle_new_failure ()
{
  if (_ZSt15get_new_handlerv)
    if (new_handler_fn h = _ZSt15get_new_handlerv ())
      {
        h ();
        return true;
      }
  if (__cxa_allocate_exception && __cxa_throw && _ZTISt9bad_alloc
      && _ZTVSt9bad_alloc)
    {
      void **e = (void **) __cxa_allocate_exception (sizeof (void *));
      *e = _ZTVSt9bad_alloc + 2 * sizeof (void *);
      __cxa_throw (e, _ZTISt9bad_alloc, _ZNSt9bad_allocD1Ev);
    }
  die ("operator new: out of memory");
}

inline void *
new_throwing (size_t size, size_t align, uintptr_t frame)
{
  for (;;)
    {
      void *p = allocate (size, align, frame, false);
      if (LIKELY (p != nullptr))
        return p;
      handle_new_failure ();
    }
}

// operator new and new[] past the sampling mode's unsampled path (or
// when the C library's malloc failed: new_throwing retries and throws).
MEMPROF_NOINLINE void *
new_profiled (size_t size)
{
  return new_throwing (size, kLibcMallocAlign, MEMPROF_FRAME);
}

} // namespace

#define NEW_ATTRS MEMPROF_EXPORT
#define DELETE_ATTRS MEMPROF_EXPORT MEMPROF_FAST_ENTRY
// The body of the throwing operator new and new[] (MEMPROF_FAST_ENTRY);
// SITE is their caller's.
MEMPROF_ALWAYS_INLINE void *
new_entry (size_t size, uintptr_t site)
{
  if (unsampled_at_entry (size, site))
    if (void *p = libc_heap.malloc (size))
      return p;
  return new_profiled (size);
}
NEW_ATTRS MEMPROF_FAST_ENTRY void *
operator new (size_t size)
{
  return new_entry (size, MEMPROF_CALLER_SITE);
}
NEW_ATTRS MEMPROF_FAST_ENTRY void *
operator new[] (size_t size)
{
  return new_entry (size, MEMPROF_CALLER_SITE);
}
NEW_ATTRS void *
operator new (size_t size, const std::nothrow_t &) noexcept
{
  return allocate (size, kLibcMallocAlign, MEMPROF_FRAME, false);
}
NEW_ATTRS void *
operator new[] (size_t size, const std::nothrow_t &) noexcept
{
  return allocate (size, kLibcMallocAlign, MEMPROF_FRAME, false);
}
NEW_ATTRS void *
operator new (size_t size, std::align_val_t align)
{
  return new_throwing (size, (size_t) align, MEMPROF_FRAME);
}
NEW_ATTRS void *
operator new[] (size_t size, std::align_val_t align)
{
  return new_throwing (size, (size_t) align, MEMPROF_FRAME);
}
NEW_ATTRS void *
operator new (size_t size, std::align_val_t align,
              const std::nothrow_t &) noexcept
{
  return allocate (size, (size_t) align, MEMPROF_FRAME, false);
}
NEW_ATTRS void *
operator new[] (size_t size, std::align_val_t align,
                const std::nothrow_t &) noexcept
{
  return allocate (size, (size_t) align, MEMPROF_FRAME, false);
}

DELETE_ATTRS void
operator delete (void *p) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete[] (void *p) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete (void *p, const std::nothrow_t &) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete[] (void *p, const std::nothrow_t &) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete (void *p, size_t) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete[] (void *p, size_t) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete (void *p, std::align_val_t) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete[] (void *p, std::align_val_t) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete (void *p, std::align_val_t, const std::nothrow_t &) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete[] (void *p, std::align_val_t, const std::nothrow_t &) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete (void *p, size_t, std::align_val_t) noexcept
{
  free_entry (p);
}
DELETE_ATTRS void
operator delete[] (void *p, size_t, std::align_val_t) noexcept
{
  free_entry (p);
}
