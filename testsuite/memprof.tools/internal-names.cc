// Program for internal-names.exp: allocation sites in C++ functions of
// internal linkage, to which GCC's debug information gives no linkage
// name (only DW_AT_name): two overloads of a function of an anonymous
// namespace, a const member function of a class there, a static
// function of a named namespace, an internal function inlined into an
// external one, and a function template instantiated over a type of the
// anonymous namespace.  Each site allocates a different number of
// blocks.
#include <cstdlib>

namespace
{
struct Item
{
  int a, b;
};

__attribute__ ((noinline)) void *
anon_alloc (unsigned long n)
{
  return std::malloc (n);
}

__attribute__ ((noinline)) void *
anon_alloc (int a, int b)
{
  return std::malloc (a + b);
}

struct Pool
{
  __attribute__ ((noinline)) void *grab (int n) const;
};

void *
Pool::grab (int n) const
{
  return std::malloc (n);
}
} // namespace

namespace ns
{
static __attribute__ ((noinline)) void *
stat_alloc (const char *tag, long n)
{
  return std::malloc (n + (tag != nullptr));
}

static inline __attribute__ ((always_inline)) void *
inl_alloc (short n)
{
  return std::malloc (n);
}

__attribute__ ((noinline)) void *
outer (int n)
{
  return inl_alloc (n);
}

template <typename T>
__attribute__ ((noinline)) T *
make_one (int n)
{
  return static_cast<T *> (std::malloc (n * sizeof (T)));
}
} // namespace ns

int
main ()
{
  Pool pool;
  for (int i = 0; i < 2; i++)
    std::free (anon_alloc (16UL));
  for (int i = 0; i < 3; i++)
    std::free (anon_alloc (8, 8));
  for (int i = 0; i < 4; i++)
    std::free (pool.grab (24));
  for (int i = 0; i < 5; i++)
    std::free (ns::stat_alloc ("x", 32));
  for (int i = 0; i < 6; i++)
    std::free (ns::outer (40));
  for (int i = 0; i < 7; i++)
    std::free (ns::make_one<Item> (2));
  return 0;
}
