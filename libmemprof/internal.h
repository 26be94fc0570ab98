// Things every part of the runtime needs: export macro, branch hints,
// a spin lock, and the freestanding helpers of libc_internal.cpp.
//
// The runtime is the program's malloc, so it never calls malloc, never
// throws and never depends on libstdc++.  It must not call memcpy/memset
// either: inside libmemprof.so those names bind to our own interceptors.

#ifndef MEMPROF_INTERNAL_H
#define MEMPROF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define MEMPROF_EXPORT __attribute__ ((visibility ("default")))
#define MEMPROF_NOINLINE __attribute__ ((noinline))
#define MEMPROF_ALWAYS_INLINE inline __attribute__ ((always_inline))
#define LIKELY(x) __builtin_expect (!!(x), 1)
#define UNLIKELY(x) __builtin_expect (!!(x), 0)
#define MEMPROF_TLS __thread __attribute__ ((tls_model ("initial-exec")))

namespace memprof {

// A wait inside the runtime (for a lock, for another thread's cache):
// call pause () in the loop.  In a dump run from a signal handler the
// wait is bounded: the interrupted thread may hold what it waits for,
// and past kLimitNs the dump is abandoned (signal_dump.cpp).
struct Waiter
{
  static constexpr uint64_t kLimitNs = 1000000000;   // 1 s.
  uint32_t spins = 0;
  uint64_t start_ns = 0;
  void pause ()
  {
    __builtin_ia32_pause ();
    if (UNLIKELY ((++spins & 255) == 0))
      check_bound ();
  }
  void check_bound ();
};

// A test-and-test-and-set lock; zero-initialised means unlocked, so
// locks in static storage work before any constructor runs.
struct SpinLock
{
  volatile int state;

  void lock ()
  {
    if (UNLIKELY (__atomic_exchange_n (&state, 1, __ATOMIC_ACQUIRE)))
      lock_contended ();
  }
  bool try_lock () { return !__atomic_exchange_n (&state, 1, __ATOMIC_ACQUIRE); }
  void unlock () { __atomic_store_n (&state, 0, __ATOMIC_RELEASE); }
  MEMPROF_NOINLINE void lock_contended ()
  {
    Waiter w;
    do
      while (__atomic_load_n (&state, __ATOMIC_RELAXED))
        w.pause ();
    while (__atomic_exchange_n (&state, 1, __ATOMIC_ACQUIRE));
  }
};

struct LockGuard
{
  SpinLock &l;
  explicit LockGuard (SpinLock &lock) : l (lock) { l.lock (); }
  ~LockGuard () { l.unlock (); }
};

// libc_internal.cpp: freestanding helpers that never recurse into us.
void internal_memcpy (void *dst, const void *src, size_t n);
void internal_memmove (void *dst, const void *src, size_t n);
void internal_memset (void *dst, int c, size_t n);
size_t internal_strlen (const char *s);
size_t internal_strnlen (const char *s, size_t max);
int internal_strcmp (const char *a, const char *b);
int internal_strncmp (const char *a, const char *b, size_t n);

// The text of an errno value for messages, without libc's strerror
// (which may need the locale machinery before it is ready).
const char *error_string (int err);

// Anonymous memory straight from the kernel; null on failure.
void *map_memory (size_t size, bool noreserve);
void unmap_memory (void *p, size_t size);
// The mapping [P, P + OLD_SIZE) resized to NEW_SIZE bytes, moved if need
// be (its pages go along, nothing is copied); null, errno and the
// mapping untouched, on failure.
void *remap_memory (void *p, size_t old_size, size_t new_size);

// Raw system calls, so the runtime's own I/O is never counted as
// the program's and never reaches an interceptor.
long sys_read (int fd, void *buf, size_t n);
long sys_write (int fd, const void *buf, size_t n);
long sys_pwrite (int fd, const void *buf, size_t n, long off);
int sys_open (const char *path, int flags, int mode);
int sys_close (int fd);
int sys_getpid ();
// End the process (the exit_group system call: no exit handlers, not
// our _exit's dump).
[[noreturn]] void sys_exit_group (int status);
int sys_getppid ();
int sys_gettid ();

// A tiny formatter into a fixed buffer: %s %d %u %lu %llu %x %lx %p %c %%.
// Always NUL-terminates; returns the length written.
size_t format (char *buf, size_t size, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
// One formatted line to stderr (no malloc, one write).
void report (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
// Print "memprof: MESSAGE" and abort: used only for broken invariants.
// Sets runtime_broken first: the crash then writes no profile.
[[noreturn]] void die (const char *msg);
extern bool runtime_broken;

inline uintptr_t
round_up (uintptr_t x, uintptr_t a)
{
  return (x + a - 1) & ~(a - 1);
}
inline uintptr_t
round_down (uintptr_t x, uintptr_t a)
{
  return x & ~(a - 1);
}

constexpr uintptr_t kPageSize = 4096;

} // namespace memprof

#endif
