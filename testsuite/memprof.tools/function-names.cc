// Program for function-names.exp: allocation sites in two overloads of a
// member function, in a function template and in a C function, so that
// memprof-dump --function can be given each by its linkage name, its
// demangled name or its name without parameters; and a std::vector grown
// by fill_vector, whose blocks' frames from 0 out are libstdc++'s up to
// fill_vector (8 blocks: capacities 1, 2, 4, ..., 128); and a checking
// wrapper inlined, through another, into wrapped_site (6 blocks), whose
// frame 0 is the inner wrapper's; and make_widget, whose 4 blocks come
// through two allocation wrappers of the program's own (pool_alloc
// called by xalloc), found with --allocator; and make_list, whose 2
// blocks come through pool_alloc and arena_grow with a helper inlined
// into each (arena_new, list_grow: tcc's tal_new and tok_str_realloc),
// which --allocator need not name; and make_tree, whose 3 blocks come
// through pool_alloc and xalloc too, but which is also deeper in the
// stacks of 2 more, behind four callees of its own in front of xalloc
// (SQLite's balance_nonroot): the hint still names the two wrappers;
// and tagged_name, which returns a std::string and so has GCC's ABI tag
// ("tagged_name[abi:cxx11](int)"), found without it (2 blocks).
#include <cstdlib>
#include <string>
#include <vector>

namespace ns
{
struct Table
{
  __attribute__ ((noinline)) void *add (long n);
  __attribute__ ((noinline)) void *add (int a, int b);
};

void *
Table::add (long n)
{
  return std::malloc (n);
}

void *
Table::add (int a, int b)
{
  return std::malloc (a + b);
}

template <typename T>
__attribute__ ((noinline)) T *
make (int n)
{
  return static_cast<T *> (std::malloc (n * sizeof (T)));
}
} // namespace ns

extern "C" __attribute__ ((noinline)) void *
plain_c_site (int n)
{
  return std::malloc (n);
}

static inline __attribute__ ((always_inline)) void *
checked_alloc (int n)
{
  void *p = std::malloc (n);
  if (!p)
    std::abort ();
  return p;
}

static inline __attribute__ ((always_inline)) void *
counted_alloc (int n)
{
  static int count;
  count++;
  return checked_alloc (n);
}

extern "C" __attribute__ ((noinline)) void *
wrapped_site (int n)
{
  return counted_alloc (n);
}

extern "C" __attribute__ ((noinline)) void *
pool_alloc (std::size_t n)
{
  return std::malloc (n);
}

extern "C" __attribute__ ((noinline)) void *
xalloc (std::size_t n)
{
  void *p = pool_alloc (n);
  if (!p)
    std::abort ();
  return p;
}

extern "C" __attribute__ ((noinline)) void *
make_widget (void)
{
  return xalloc (24);
}

static inline __attribute__ ((always_inline)) void *
arena_new (std::size_t n)
{
  return pool_alloc (n);
}

extern "C" __attribute__ ((noinline)) void *
arena_grow (std::size_t n)
{
  void *p = arena_new (n);
  if (!p)
    std::abort ();
  return p;
}

static inline __attribute__ ((always_inline)) void *
list_grow (std::size_t n)
{
  return arena_grow (n);
}

extern "C" __attribute__ ((noinline)) void *
make_list (void)
{
  return list_grow (40);
}

extern "C" __attribute__ ((noinline)) void *
tree_leaf (void)
{
  return xalloc (16);
}

extern "C" __attribute__ ((noinline)) void *
tree_level3 (void)
{
  return tree_leaf ();
}

extern "C" __attribute__ ((noinline)) void *
tree_level2 (void)
{
  return tree_level3 ();
}

extern "C" __attribute__ ((noinline)) void *
tree_level1 (void)
{
  return tree_level2 ();
}

extern "C" __attribute__ ((noinline)) void
make_tree (void)
{
  for (int i = 0; i < 3; i++)
    std::free (xalloc (32));
  for (int i = 0; i < 2; i++)
    std::free (tree_level1 ());
}

__attribute__ ((noinline)) std::string
tagged_name (int n)
{
  char *p = static_cast<char *> (std::malloc (n));
  std::string s (p ? "x" : "");
  std::free (p);
  return s;
}

__attribute__ ((noinline)) long
fill_vector (int n)
{
  std::vector<long> v;
  for (int i = 0; i < n; i++)
    v.push_back (i);
  return v.back ();
}

int
main ()
{
  ns::Table t;
  for (int i = 0; i < 3; i++)
    std::free (t.add (10L));
  for (int i = 0; i < 5; i++)
    std::free (t.add (1, 2));
  std::free (ns::make<double> (4));
  std::free (plain_c_site (7));
  for (int i = 0; i < 6; i++)
    std::free (wrapped_site (9));
  for (int i = 0; i < 4; i++)
    std::free (make_widget ());
  for (int i = 0; i < 2; i++)
    std::free (make_list ());
  make_tree ();
  for (int i = 0; i < 2; i++)
    if (tagged_name (24).size () != 1)
      return 1;
  return fill_vector (100) == 99 ? 0 : 1;
}
