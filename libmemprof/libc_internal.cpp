// Freestanding helpers: string operations written so the compiler cannot
// turn them back into calls to memcpy/memset (which, inside the runtime,
// would be our own counting interceptors), raw system calls, a small
// formatter and stderr reporting.

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace memprof {

bool runtime_broken;

namespace {
// Unaligned access types (GCC's own __m128i_u is declared so).
typedef uint64_t u64_unaligned __attribute__ ((aligned (1), may_alias));
typedef uint32_t u32_unaligned __attribute__ ((aligned (1), may_alias));
typedef uint16_t u16_unaligned __attribute__ ((aligned (1), may_alias));
typedef long long v16_unaligned
  __attribute__ ((vector_size (16), aligned (1), may_alias));

// rep movsb/stosb start slowly (tens of cycles) but win on long runs.
constexpr size_t kRepThreshold = 512;
} // namespace

// Small sizes (realloc, strdup, calloc of small blocks) with a few
// overlapping loads and stores; every load of a step comes before its
// stores, so a forward copy with DST below SRC is also right (memmove
// relies on that).
void
internal_memcpy (void *dst, const void *src, size_t n)
{
  char *d = (char *) dst;
  const char *s = (const char *) src;
  if (n <= 16)
    {
      if (n >= 8)
        {
          uint64_t a = *(const u64_unaligned *) s;
          uint64_t b = *(const u64_unaligned *) (s + n - 8);
          *(u64_unaligned *) d = a;
          *(u64_unaligned *) (d + n - 8) = b;
        }
      else if (n >= 4)
        {
          uint32_t a = *(const u32_unaligned *) s;
          uint32_t b = *(const u32_unaligned *) (s + n - 4);
          *(u32_unaligned *) d = a;
          *(u32_unaligned *) (d + n - 4) = b;
        }
      else if (n >= 2)
        {
          uint16_t a = *(const u16_unaligned *) s;
          uint16_t b = *(const u16_unaligned *) (s + n - 2);
          *(u16_unaligned *) d = a;
          *(u16_unaligned *) (d + n - 2) = b;
        }
      else if (n)
        *d = *s;
      return;
    }
  if (n <= kRepThreshold)
    {
      v16_unaligned last = *(const v16_unaligned *) (s + n - 16);
      for (size_t i = 0; i < n - 16; i += 16)
        *(v16_unaligned *) (d + i) = *(const v16_unaligned *) (s + i);
      *(v16_unaligned *) (d + n - 16) = last;
      return;
    }
  asm volatile ("rep movsb"
                : "+D"(dst), "+S"(src), "+c"(n)
                :
                : "memory");
}

void
internal_memmove (void *dst, const void *src, size_t n)
{
  unsigned char *d = (unsigned char *) dst;
  const unsigned char *s = (const unsigned char *) src;
  if (d <= s || d >= s + n)
    {
      internal_memcpy (dst, src, n);
      return;
    }
  // Overlapping with dst above src: copy backwards with the direction
  // flag set, restoring it as the ABI requires.
  d += n - 1;
  s += n - 1;
  asm volatile ("std\n\trep movsb\n\tcld"
                : "+D"(d), "+S"(s), "+c"(n)
                :
                : "memory");
}

void
internal_memset (void *dst, int c, size_t n)
{
  char *d = (char *) dst;
  if (n <= kRepThreshold)
    {
      uint64_t w = (uint64_t) (unsigned char) c * 0x0101010101010101ULL;
      if (n >= 16)
        {
          v16_unaligned v = { (long long) w, (long long) w };
          for (size_t i = 0; i < n - 16; i += 16)
            *(v16_unaligned *) (d + i) = v;
          *(v16_unaligned *) (d + n - 16) = v;
        }
      else if (n >= 8)
        {
          *(u64_unaligned *) d = w;
          *(u64_unaligned *) (d + n - 8) = w;
        }
      else if (n >= 4)
        {
          *(u32_unaligned *) d = (uint32_t) w;
          *(u32_unaligned *) (d + n - 4) = (uint32_t) w;
        }
      else
        for (size_t i = 0; i < n; i++)
          ((volatile char *) d)[i] = (char) c;
      return;
    }
  asm volatile ("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
}

size_t
internal_strlen (const char *s)
{
  size_t n = 0;
  while (((volatile const char *) s)[n])
    n++;
  return n;
}

size_t
internal_strnlen (const char *s, size_t max)
{
  size_t n = 0;
  while (n < max && ((volatile const char *) s)[n])
    n++;
  return n;
}

int
internal_strcmp (const char *a, const char *b)
{
  for (;; a++, b++)
    {
      unsigned char x = *a, y = *b;
      if (x != y || !x)
        return x - y;
    }
}

int
internal_strncmp (const char *a, const char *b, size_t n)
{
  for (; n; n--, a++, b++)
    {
      unsigned char x = *a, y = *b;
      if (x != y || !x)
        return x - y;
    }
  return 0;
}

const char *
error_string (int err)
{
  switch (err)
    {
    case ENOMEM:
      return "Cannot allocate memory";
    case EPERM:
      return "Operation not permitted";
    case EINVAL:
      return "Invalid argument";
    case EAGAIN:
      return "Resource temporarily unavailable";
    case EACCES:
      return "Permission denied";
    default:
      return "Unknown error";
    }
}

void *
map_memory (size_t size, bool noreserve)
{
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | (noreserve ? MAP_NORESERVE : 0);
  void *p = mmap (nullptr, size, PROT_READ | PROT_WRITE, flags, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void
unmap_memory (void *p, size_t size)
{
  munmap (p, size);
}

void *
remap_memory (void *p, size_t old_size, size_t new_size)
{
  int saved = errno;
  void *q = mremap (p, old_size, new_size, MREMAP_MAYMOVE);
  if (q != MAP_FAILED)
    return q;
  errno = saved;
  return nullptr;
}

// Raw system calls.  errno is saved and restored: the runtime must not
// change what the program sees in errno.
namespace {
struct ErrnoSaver
{
  int saved = errno;
  ~ErrnoSaver () { errno = saved; }
};
} // namespace

long
sys_read (int fd, void *buf, size_t n)
{
  ErrnoSaver e;
  long r;
  do
    r = syscall (SYS_read, fd, buf, n);
  while (r < 0 && errno == EINTR);
  return r < 0 ? -errno : r;
}

long
sys_write (int fd, const void *buf, size_t n)
{
  ErrnoSaver e;
  long r;
  do
    r = syscall (SYS_write, fd, buf, n);
  while (r < 0 && errno == EINTR);
  return r < 0 ? -errno : r;
}

long
sys_pwrite (int fd, const void *buf, size_t n, long off)
{
  ErrnoSaver e;
  long r;
  do
    r = syscall (SYS_pwrite64, fd, buf, n, off);
  while (r < 0 && errno == EINTR);
  return r < 0 ? -errno : r;
}

int
sys_open (const char *path, int flags, int mode)
{
  ErrnoSaver e;
  long r = syscall (SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, mode);
  return r < 0 ? -errno : (int) r;
}

int
sys_close (int fd)
{
  ErrnoSaver e;
  return syscall (SYS_close, fd) < 0 ? -errno : 0;
}

int
sys_getpid ()
{
  return (int) syscall (SYS_getpid);
}

void
sys_exit_group (int status)
{
  for (;;)
    syscall (SYS_exit_group, status);
}

int
sys_getppid ()
{
  return (int) syscall (SYS_getppid);
}

int
sys_gettid ()
{
  return (int) syscall (SYS_gettid);
}

namespace {

struct Out
{
  char *buf;
  size_t size;
  size_t len;
  void put (char c)
  {
    if (len + 1 < size)
      buf[len] = c;
    len++;
  }
};

void
put_unsigned (Out &o, unsigned long long v, unsigned base, int min_width,
              char pad)
{
  char digits[24];
  int n = 0;
  do
    {
      digits[n++] = "0123456789abcdef"[v % base];
      v /= base;
    }
  while (v);
  for (; n < min_width; min_width--)
    o.put (pad);
  while (n)
    o.put (digits[--n]);
}

size_t
vformat (char *buf, size_t size, const char *fmt, va_list ap)
{
  Out o{ buf, size, 0 };
  for (const char *f = fmt; *f; f++)
    {
      if (*f != '%')
        {
          o.put (*f);
          continue;
        }
      f++;
      char pad = ' ';
      int width = 0;
      if (*f == '0')
        {
          pad = '0';
          f++;
        }
      while (*f >= '0' && *f <= '9')
        width = width * 10 + (*f++ - '0');
      int longs = 0;
      while (*f == 'l' || *f == 'z')
        {
          longs = 2;
          f++;
        }
      switch (*f)
        {
        case 's':
          {
            const char *s = va_arg (ap, const char *);
            if (!s)
              s = "(null)";
            size_t l = internal_strlen (s);
            for (size_t i = l; (int) i < width; i++)
              o.put (' ');
            for (; *s; s++)
              o.put (*s);
            break;
          }
        case 'c':
          o.put ((char) va_arg (ap, int));
          break;
        case 'd':
          {
            long long v = longs ? va_arg (ap, long long) : va_arg (ap, int);
            if (v < 0)
              {
                o.put ('-');
                v = -v;
              }
            put_unsigned (o, (unsigned long long) v, 10, width, pad);
            break;
          }
        case 'u':
        case 'x':
          {
            unsigned long long v = longs ? va_arg (ap, unsigned long long)
                                         : va_arg (ap, unsigned);
            put_unsigned (o, v, *f == 'u' ? 10 : 16, width, pad);
            break;
          }
        case 'p':
          o.put ('0');
          o.put ('x');
          put_unsigned (o, (uintptr_t) va_arg (ap, void *), 16, width, pad);
          break;
        case '%':
          o.put ('%');
          break;
        default:
          o.put ('?');
          break;
        }
    }
  if (size)
    buf[o.len < size ? o.len : size - 1] = 0;
  return o.len < size ? o.len : (size ? size - 1 : 0);
}

} // namespace

size_t
format (char *buf, size_t size, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  size_t n = vformat (buf, size, fmt, ap);
  va_end (ap);
  return n;
}

void
report (const char *fmt, ...)
{
  char line[1024];
  va_list ap;
  va_start (ap, fmt);
  size_t n = vformat (line, sizeof line - 1, fmt, ap);
  va_end (ap);
  line[n++] = '\n';
  sys_write (2, line, n);
}

void
die (const char *msg)
{
  __atomic_store_n (&runtime_broken, true, __ATOMIC_RELAXED);
  report ("memprof: %s", msg);
  __builtin_trap ();
}

} // namespace memprof
