// Every operator new and delete in the sampling mode (sampling_heap.h):
// small objects are glibc's (glibc's chunk header before them), 16 MiB
// arrays sampled and the runtime's (counted in the profile with weight
// 1); plain, array, nothrow, aligned and sized forms, each freed by its
// matching delete.  Aborts with a message at the first violation.
// { dg-do run }
// { dg-options "-O0 -fsized-deallocation" }
// { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=65536:sample_seed=2" }

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <new>

namespace {

constexpr std::size_t kBig = std::size_t (16) << 20;

void
check (bool ok, const char *what, std::size_t a)
{
  if (!ok)
    {
      std::fprintf (stderr, "FAILED: %s (%zu)\n", what, a);
      std::abort ();
    }
}

// Whether P is glibc's block of an N-byte request from its heap: the
// word before it, glibc's chunk header, holds the chunk's size (usable
// bytes + 8) and flag bits, IS_MMAPPED (2) clear.  The runtime reports
// glibc's usable sizes too, but has its own header there (the block's
// type id: small).  Read by asm, which the plugin does not count.
bool
is_glibcs (void *p, std::size_t n)
{
  std::size_t chunk = (n + 8 + 15) & ~std::size_t (15), head;
  __asm__ ("movq -8(%1), %0" : "=r" (head) : "r" (p));
  return (head & ~std::size_t (7)) == (chunk < 32 ? 32 : chunk)
         && !(head & 2);
}

struct alignas (64) Line
{
  char bytes[64];
};

struct Small
{
  long a, b, c;
};

__attribute__ ((noinline)) char *
big_array ()
{
  return new char[kBig];
}

__attribute__ ((noinline)) Line *
big_lines ()
{
  return new Line[kBig / sizeof (Line)];
}

__attribute__ ((noinline)) char *
big_nothrow ()
{
  return new (std::nothrow) char[kBig];
}

} // namespace

int
main ()
{
  unsigned libc = 0;
  for (int i = 0; i < 1000; i++)
    {
      Small *s = new Small ();
      check (s->a == 0 && s->c == 0, "value-initialised", i);
      libc += is_glibcs (s, sizeof (Small));
      delete s;   // Sized delete.
      char *a = new char[40 + i % 50];
      std::memset (a, 1, 40 + i % 50);
      libc += is_glibcs (a, 40 + i % 50);
      delete[] a;
      Line *l = new Line;
      check ((std::uintptr_t) l % 64 == 0, "aligned new", i);
      std::memset (l, 2, sizeof *l);
      delete l;   // Aligned sized delete.
      Small *n = new (std::nothrow) Small;
      check (n != nullptr, "nothrow new", i);
      ::operator delete (n, std::nothrow);
      void *v = ::operator new (100, std::align_val_t (256));
      check ((std::uintptr_t) v % 256 == 0, "aligned operator new", i);
      ::operator delete (v, 100, std::align_val_t (256));
    }
  check (libc >= 1990, "small objects are glibc's", libc);
  for (int i = 0; i < 2; i++)
    {
      char *a = big_array ();
      check (!is_glibcs (a, kBig), "a 16 MiB array is ours", i);
      std::memset (a, 3, kBig);
      delete[] a;
      Line *l = big_lines ();
      check ((std::uintptr_t) l % 64 == 0, "aligned new[]", i);
      std::memset (l, 4, kBig);
      delete[] l;
      char *n = big_nothrow ();
      check (n != nullptr, "nothrow new[]", i);
      std::memset (n, 5, kBig);
      ::operator delete[] (n, std::nothrow);
    }
  return 0;
}

// The big_* functions are in an anonymous namespace: named as the
// demangler would print them.
// { dg-final { memprof-record {fn=(anonymous namespace)::big_array()} alloc_count==2 total_size==33554432 } }
// { dg-final { memprof-record {fn=(anonymous namespace)::big_lines()} alloc_count==2 total_size==33554432 } }
// { dg-final { memprof-record {fn=(anonymous namespace)::big_nothrow()} alloc_count==2 total_size==33554432 } }
