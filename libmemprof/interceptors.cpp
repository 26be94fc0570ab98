// What the compiler cannot see: libc functions that read or write memory
// count as accesses over the ranges they touch, by the one rule of
// range_access.h (one increment per 64-byte granule a range overlaps).
// The plugin's memory builtins come here too (__memprof_memcpy etc.).
//
// The real implementation is libc's, found with dlsym (RTLD_NEXT) when
// the runtime initialises.  Before that (other libraries' constructors,
// the loader) the built-in fallbacks below do the work: they never
// allocate and never recurse into an interceptor.
//
// <string.h> is not included: its C++ overloads of strchr and friends
// would clash with these C definitions.

#include "allocator.h"
#include "runtime.h"
#include "memprof/range_access.h"
#include "shadow.h"
#include "histogram_shadow.h"
#include "next_fn.h"

#include <dlfcn.h>
#include <emmintrin.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

using namespace memprof;

namespace {

// Count a range where a block may be (allocator_may_hold): a copy to
// or from a stack buffer, a global or, in the sampling mode, the C
// library's heap touches no shadow.
inline void
count (const void *p, size_t n)
{
  if (!allocator_may_hold (p))
    return;
  if (UNLIKELY (histogram_mode))
    memprof_histogram_count_range (__memprof_histogram_shadow_base,
                                   (uintptr_t) p, n);
  else
    memprof_count_range (__memprof_shadow_memory_dynamic_address,
                         (uintptr_t) p, n);
}

// Built-in fallbacks, used until interceptors_init.
void *
fb_memcpy (void *d, const void *s, size_t n)
{
  internal_memcpy (d, s, n);
  return d;
}
void *
fb_memmove (void *d, const void *s, size_t n)
{
  internal_memmove (d, s, n);
  return d;
}
void *
fb_memset (void *d, int c, size_t n)
{
  internal_memset (d, c, n);
  return d;
}
ssize_t
fb_read (int fd, void *buf, size_t n)
{
  return syscall (SYS_read, fd, buf, n);
}
ssize_t
fb_write (int fd, const void *buf, size_t n)
{
  return syscall (SYS_write, fd, buf, n);
}
ssize_t
fb_pread (int fd, void *buf, size_t n, off_t off)
{
  return syscall (SYS_pread64, fd, buf, n, off);
}

struct RealFunctions
{
  void *(*memcpy) (void *, const void *, size_t) = fb_memcpy;
  void *(*memmove) (void *, const void *, size_t) = fb_memmove;
  void *(*memset) (void *, int, size_t) = fb_memset;
  ssize_t (*read) (int, void *, size_t) = fb_read;
  ssize_t (*write) (int, const void *, size_t) = fb_write;
  ssize_t (*pread) (int, void *, size_t, off_t) = fb_pread;
  size_t (*fread) (void *, size_t, size_t, FILE *) = nullptr;
  size_t (*fwrite) (const void *, size_t, size_t, FILE *) = nullptr;
  char *(*fgets) (char *, int, FILE *) = nullptr;
  size_t (*strlen) (const char *) = internal_strlen;
  size_t (*strnlen) (const char *, size_t) = internal_strnlen;
};
RealFunctions real;

template <typename T>
void
resolve (T &slot, const char *name)
{
  if (void *f = dlsym (RTLD_NEXT, name))
    slot = (T) f;
}

// libc's vectorised strlen/strnlen once resolved, the byte loops before.
inline size_t
fast_strlen (const char *s)
{
  return real.strlen (s);
}
inline size_t
fast_strnlen (const char *s, size_t max)
{
  return real.strnlen (s, max);
}

// Bytes of the string S that a str* function reads: up to and including
// its terminator, at most MAX.
inline size_t
string_extent (const char *s, size_t max)
{
  size_t n = fast_strnlen (s, max);
  return n < max ? n + 1 : n;
}

// Bytes strcmp-like functions read from each side: up to the first
// difference or terminator, inclusive, at most MAX.  Sixteen bytes at a
// time while neither side's 16-byte load can cross into another page
// (so it never faults where a byte loop would not); a byte loop near
// page ends and for the tail.
inline size_t
compare_extent (const char *a, const char *b, size_t max)
{
  size_t i = 0;
  for (;;)
    {
      uintptr_t pa = (uintptr_t) (a + i), pb = (uintptr_t) (b + i);
      if (max - i < 16 || (pa & 4095) > 4080 || (pb & 4095) > 4080)
        break;
      __m128i x = _mm_loadu_si128 ((const __m128i *) pa);
      __m128i y = _mm_loadu_si128 ((const __m128i *) pb);
      __m128i differ = _mm_xor_si128 (_mm_cmpeq_epi8 (x, y),
                                      _mm_set1_epi8 ((char) 0xff));
      __m128i nul = _mm_cmpeq_epi8 (x, _mm_setzero_si128 ());
      unsigned stop = (unsigned) _mm_movemask_epi8 (_mm_or_si128 (differ, nul));
      if (stop)
        return i + __builtin_ctz (stop) + 1;
      i += 16;
    }
  while (i < max && a[i] == b[i] && a[i])
    i++;
  return i < max ? i + 1 : i;
}

} // namespace

namespace memprof {

void
interceptors_init ()
{
  RealFunctions r;
  resolve (r.memcpy, "memcpy");
  resolve (r.memmove, "memmove");
  resolve (r.memset, "memset");
  resolve (r.read, "read");
  resolve (r.write, "write");
  resolve (r.pread, "pread");
  resolve (r.fread, "fread");
  resolve (r.fwrite, "fwrite");
  resolve (r.fgets, "fgets");
  resolve (r.strlen, "strlen");
  resolve (r.strnlen, "strnlen");
  __atomic_store_n (&real.memcpy, r.memcpy, __ATOMIC_RELEASE);
  __atomic_store_n (&real.memmove, r.memmove, __ATOMIC_RELEASE);
  __atomic_store_n (&real.memset, r.memset, __ATOMIC_RELEASE);
  __atomic_store_n (&real.read, r.read, __ATOMIC_RELEASE);
  __atomic_store_n (&real.write, r.write, __ATOMIC_RELEASE);
  __atomic_store_n (&real.pread, r.pread, __ATOMIC_RELEASE);
  if (r.fread)
    __atomic_store_n (&real.fread, r.fread, __ATOMIC_RELEASE);
  if (r.fwrite)
    __atomic_store_n (&real.fwrite, r.fwrite, __ATOMIC_RELEASE);
  if (r.fgets)
    __atomic_store_n (&real.fgets, r.fgets, __ATOMIC_RELEASE);
  __atomic_store_n (&real.strlen, r.strlen, __ATOMIC_RELEASE);
  __atomic_store_n (&real.strnlen, r.strnlen, __ATOMIC_RELEASE);
}

} // namespace memprof

extern "C" {

// ---- Compiler-called (abi.h) ---------------------------------------

MEMPROF_EXPORT void
__memprof_record_access_range (const void *p, size_t n)
{
  count (p, n);
}

MEMPROF_EXPORT void
__memprof_count_strided (uintptr_t addr, uintptr_t count, uintptr_t stride)
{
  memprof_count_strided (__memprof_shadow_memory_dynamic_address, addr, count,
                         stride);
}

MEMPROF_EXPORT void
__memprof_hist_count_strided (uintptr_t addr, uintptr_t count,
                              uintptr_t stride)
{
  memprof_histogram_count_strided (__memprof_histogram_shadow_base, addr,
                                   count, stride);
}

MEMPROF_EXPORT void
__memprof_hist_load (uintptr_t addr)
{
  if (__memprof_histogram_shadow_base)
    memprof_histogram_add (memprof_histogram_counter
                             (__memprof_histogram_shadow_base, addr), 1);
}

// A store counts as a load does: one function, two names (a call from
// one exported function to the other would go through the PLT).
MEMPROF_EXPORT void __memprof_hist_store (uintptr_t addr)
  __attribute__ ((alias ("__memprof_hist_load")));

MEMPROF_EXPORT void
__memprof_load (uintptr_t addr)
{
  if (__memprof_shadow_memory_dynamic_address)
    ++*shadow_counter (addr);
}

MEMPROF_EXPORT void
__memprof_store (uintptr_t addr)
{
  if (__memprof_shadow_memory_dynamic_address)
    ++*shadow_counter (addr);
}

// The memory functions are fast entries (runtime.h): no frame, and a
// jump to the C library's function, so a copy of memory that is not a
// block's (the sampling mode's glibc blocks, the stack) costs a call
// and two compares more than unprofiled.
MEMPROF_EXPORT MEMPROF_FAST_ENTRY void *
__memprof_memcpy (void *d, const void *s, size_t n)
{
  count (d, n);
  count (s, n);
  return real.memcpy (d, s, n);
}

MEMPROF_EXPORT MEMPROF_FAST_ENTRY void *
__memprof_memmove (void *d, const void *s, size_t n)
{
  count (d, n);
  count (s, n);
  return real.memmove (d, s, n);
}

MEMPROF_EXPORT MEMPROF_FAST_ENTRY void *
__memprof_memset (void *d, int c, size_t n)
{
  count (d, n);
  return real.memset (d, c, n);
}

// ---- libc memory functions -----------------------------------------
// Calls from uninstrumented code count by the same rule as the plugin's
// redirected builtins: the same functions under the libc names.

MEMPROF_EXPORT void *memcpy (void *d, const void *s, size_t n)
  __attribute__ ((alias ("__memprof_memcpy")));
// Histogram mode's builtins: count () follows the mode.
MEMPROF_EXPORT void *__memprof_hist_memcpy (void *d, const void *s, size_t n)
  __attribute__ ((alias ("__memprof_memcpy")));
MEMPROF_EXPORT void *__memprof_hist_memmove (void *d, const void *s, size_t n)
  __attribute__ ((alias ("__memprof_memmove")));
MEMPROF_EXPORT void *__memprof_hist_memset (void *d, int c, size_t n)
  __attribute__ ((alias ("__memprof_memset")));
MEMPROF_EXPORT void *memmove (void *d, const void *s, size_t n)
  __attribute__ ((alias ("__memprof_memmove")));
MEMPROF_EXPORT void *memset (void *d, int c, size_t n)
  __attribute__ ((alias ("__memprof_memset")));

// ---- str* ------------------------------------------------------------

MEMPROF_EXPORT size_t
strlen (const char *s)
{
  size_t n = fast_strlen (s);
  count (s, n + 1);
  return n;
}

MEMPROF_EXPORT size_t
strnlen (const char *s, size_t max)
{
  size_t n = fast_strnlen (s, max);
  count (s, n < max ? n + 1 : n);
  return n;
}

MEMPROF_EXPORT char *
strcpy (char *d, const char *s)
{
  size_t n = fast_strlen (s) + 1;
  count (s, n);
  count (d, n);
  real.memcpy (d, s, n);
  return d;
}

MEMPROF_EXPORT char *
strncpy (char *d, const char *s, size_t max)
{
  size_t n = fast_strnlen (s, max);
  count (s, n < max ? n + 1 : n);
  count (d, max);
  real.memcpy (d, s, n);
  if (n < max)
    real.memset (d + n, 0, max - n);
  return d;
}

MEMPROF_EXPORT char *
strcat (char *d, const char *s)
{
  size_t dl = fast_strlen (d);
  size_t sl = fast_strlen (s) + 1;
  count (d, dl + sl);
  count (s, sl);
  real.memcpy (d + dl, s, sl);
  return d;
}

MEMPROF_EXPORT char *
strncat (char *d, const char *s, size_t max)
{
  size_t dl = fast_strlen (d);
  size_t sl = fast_strnlen (s, max);
  count (d, dl + sl + 1);
  count (s, sl < max ? sl + 1 : sl);
  real.memcpy (d + dl, s, sl);
  d[dl + sl] = 0;
  return d;
}

MEMPROF_EXPORT int
strcmp (const char *a, const char *b)
{
  size_t n = compare_extent (a, b, (size_t) -1);
  count (a, n);
  count (b, n);
  return (unsigned char) a[n - 1] - (unsigned char) b[n - 1];
}

MEMPROF_EXPORT int
strncmp (const char *a, const char *b, size_t max)
{
  if (!max)
    return 0;
  size_t n = compare_extent (a, b, max);
  count (a, n);
  count (b, n);
  return (unsigned char) a[n - 1] - (unsigned char) b[n - 1];
}

MEMPROF_EXPORT char *
strchr (const char *s, int c)
{
  size_t i = 0;
  for (;; i++)
    if (s[i] == (char) c || !s[i])
      break;
  count (s, i + 1);
  return s[i] == (char) c ? (char *) s + i : nullptr;
}

MEMPROF_EXPORT char *
strrchr (const char *s, int c)
{
  const char *last = nullptr;
  size_t i = 0;
  for (;; i++)
    {
      if (s[i] == (char) c)
        last = s + i;
      if (!s[i])
        break;
    }
  count (s, i + 1);
  return (char *) last;
}

MEMPROF_EXPORT char *
strdup (const char *s)
{
  size_t n = fast_strlen (s) + 1;
  count (s, n);
  char *d = (char *) allocate (n, kLibcMallocAlign, MEMPROF_FRAME, false);
  if (d)
    internal_memcpy (d, s, n);   // Filling the new block: not an access.
  return d;
}

// glibc's internal name, reached through macros of older headers.
MEMPROF_EXPORT char *__strdup (const char *s)
  __attribute__ ((alias ("strdup")));

MEMPROF_EXPORT char *
strndup (const char *s, size_t max)
{
  size_t n = fast_strnlen (s, max);
  count (s, n < max ? n + 1 : n);
  char *d = (char *) allocate (n + 1, kLibcMallocAlign, MEMPROF_FRAME, false);
  if (d)
    {
      internal_memcpy (d, s, n);
      d[n] = 0;
    }
  return d;
}

// ---- I/O into and out of memory -------------------------------------

MEMPROF_EXPORT ssize_t
read (int fd, void *buf, size_t n)
{
  ssize_t r = real.read (fd, buf, n);
  if (r > 0)
    count (buf, (size_t) r);
  return r;
}

MEMPROF_EXPORT ssize_t
pread (int fd, void *buf, size_t n, off_t off)
{
  ssize_t r = real.pread (fd, buf, n, off);
  if (r > 0)
    count (buf, (size_t) r);
  return r;
}

MEMPROF_EXPORT ssize_t
write (int fd, const void *buf, size_t n)
{
  ssize_t r = real.write (fd, buf, n);
  if (r > 0)
    count (buf, (size_t) r);
  return r;
}

MEMPROF_EXPORT size_t
fread (void *buf, size_t size, size_t n, FILE *f)
{
  auto fn = next_fn (real.fread, "fread");
  size_t r = fn ? fn (buf, size, n, f) : 0;
  if (r)
    count (buf, r * size);
  return r;
}

MEMPROF_EXPORT size_t
fwrite (const void *buf, size_t size, size_t n, FILE *f)
{
  auto fn = next_fn (real.fwrite, "fwrite");
  size_t r = fn ? fn (buf, size, n, f) : 0;
  if (r)
    count (buf, r * size);
  return r;
}

MEMPROF_EXPORT char *
fgets (char *s, int n, FILE *f)
{
  auto fn = next_fn (real.fgets, "fgets");
  char *r = fn ? fn (s, n, f) : nullptr;
  if (r)
    count (s, string_extent (s, (size_t) n));
  return r;
}

} // extern "C"
