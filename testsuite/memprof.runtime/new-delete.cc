// Every operator new and delete form goes through the runtime: each
// allocating form is its own site with a known count, aligned forms are
// aligned, nothrow forms return null on failure instead of throwing, and
// the throwing forms throw std::bad_alloc.
// { dg-do run }
// { dg-options "-O2" }

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

static void
check (bool ok, const char *what)
{
  if (!ok)
    {
      std::fprintf (stderr, "FAILED: %s\n", what);
      std::abort ();
    }
}

__attribute__ ((noinline)) void
plain ()
{
  int *p = new int (1);
  keep (p);
  delete p;
}

__attribute__ ((noinline)) void
array ()
{
  char *p = new char[100];
  keep (p);
  delete[] p;
}

__attribute__ ((noinline)) void
nothrow_forms ()
{
  int *p = new (std::nothrow) int;
  char *a = new (std::nothrow) char[50];
  keep (p);
  keep (a);
  ::operator delete (p, std::nothrow);
  ::operator delete[] (a, std::nothrow);
}

struct alignas (256) Wide
{
  char bytes[300];
};

__attribute__ ((noinline)) void
aligned_forms ()
{
  Wide *w = new Wide;
  check ((std::uintptr_t) w % 256 == 0, "new aligned");
  Wide *ws = new Wide[3];
  check ((std::uintptr_t) ws % 256 == 0, "new[] aligned");
  void *n = ::operator new (100, std::align_val_t (4096), std::nothrow);
  check ((std::uintptr_t) n % 4096 == 0, "nothrow aligned");
  void *na = ::operator new[] (100, std::align_val_t (64), std::nothrow);
  check ((std::uintptr_t) na % 64 == 0, "nothrow aligned[]");
  keep (w);
  keep (ws);
  delete w;      // sized + aligned delete
  delete[] ws;   // aligned array delete
  ::operator delete (n, std::align_val_t (4096), std::nothrow);
  ::operator delete[] (na, std::align_val_t (64), std::nothrow);
}

__attribute__ ((noinline)) void
sized_forms ()
{
  void *p = ::operator new (40);
  void *a = ::operator new[] (80);
  void *al = ::operator new (40, std::align_val_t (128));
  void *ala = ::operator new[] (80, std::align_val_t (128));
  keep (p);
  keep (a);
  ::operator delete (p, 40);
  ::operator delete[] (a, 80);
  ::operator delete (al, 40, std::align_val_t (128));
  ::operator delete[] (ala, 80, std::align_val_t (128));
}

__attribute__ ((noinline)) void
failures ()
{
  static volatile std::size_t huge = SIZE_MAX / 4;
  check (::operator new (huge, std::nothrow) == nullptr, "nothrow null");
  check (::operator new[] (huge, std::nothrow) == nullptr, "nothrow[] null");
  bool thrown = false;
  try
    {
      void *p = ::operator new (huge);
      keep (p);
    }
  catch (const std::bad_alloc &)
    {
      thrown = true;
    }
  check (thrown, "operator new throws std::bad_alloc");
}

int
main ()
{
  for (int i = 0; i < 3; i++)
    plain ();
  for (int i = 0; i < 4; i++)
    array ();
  nothrow_forms ();
  aligned_forms ();
  sized_forms ();
  failures ();
  std::puts ("new/delete: ok");
  return 0;
}

// { dg-output "new/delete: ok" }
// { dg-final { memprof-profile-count 1 } }
// Selectors name functions as the symbol table does (mangled).
// { dg-final { memprof-record fn=_Z5plainv<main alloc_count==3 total_size==12 } }
// { dg-final { memprof-record fn=_Z5arrayv<main alloc_count==4 total_size==400 } }
// { dg-final { memprof-record fn=_Z13nothrow_formsv<main,line=44 alloc_count==1 total_size==4 } }
// { dg-final { memprof-record fn=_Z13nothrow_formsv<main,line=45 alloc_count==1 total_size==50 } }
// { dg-final { memprof-record fn=_Z13aligned_formsv<main,line=60 alloc_count==1 total_size==512 } }
// { dg-final { memprof-record fn=_Z13aligned_formsv<main,line=62 alloc_count==1 total_size==1536 } }
// { dg-final { memprof-record fn=_Z13aligned_formsv<main,line=64 alloc_count==1 total_size==100 } }
// { dg-final { memprof-record fn=_Z13aligned_formsv<main,line=66 alloc_count==1 total_size==100 } }
// { dg-final { memprof-record fn=_Z11sized_formsv<main,line=79 alloc_count==1 total_size==40 } }
// { dg-final { memprof-record fn=_Z11sized_formsv<main,line=80 alloc_count==1 total_size==80 } }
// { dg-final { memprof-record fn=_Z11sized_formsv<main,line=81 alloc_count==1 total_size==40 } }
// { dg-final { memprof-record fn=_Z11sized_formsv<main,line=82 alloc_count==1 total_size==80 } }
