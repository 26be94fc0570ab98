// The allocated type of C++ allocation sites: new Item, new Item[n],
// a class with a destructor in new[] (the array cookie), a template in
// a namespace, std::vector<Item> (the allocation inside
// std::__new_allocator<Item>::allocate, inlined at -O2),
// Base *b = new Derived (the object's own type), and an aggregate
// straight into a std::unique_ptr, by new and by std::make_unique (its
// type only in the smart pointer's constructor's parameter list).
// { dg-do run }

#include <cstdlib>
#include <memory>
#include <vector>

struct Item
{
  int a;
  double b;
};

namespace ns
{
template <class T> struct Box
{
  T v;
  long w[3];
};
}

struct Owned
{
  int x;
  Owned () : x (1) {}
  ~Owned () { x = 0; }
};

struct Base
{
  virtual ~Base () {}
  int b;
};

struct Derived : Base
{
  long d;
};

struct Agg
{
  long a, b, c;
};

__attribute__ ((noinline)) void
sink (void *p)
{
  __asm__ volatile ("" : : "r"(p) : "memory");
}

namespace ns
{
typedef void (*callback) ();
}

// An unnamed struct named by its typedef ("typedef point_t point_t"
// before).
typedef struct
{
  int x, y;
  long z;
} point_t;

point_t *volatile point;

ns::callback *volatile callbacks;
int (**volatile unary) (int);

__attribute__ ((noinline)) void
function_pointers ()
{
  callbacks = new ns::callback[4];
  unary = static_cast<int (**) (int)> (std::malloc (2 * sizeof *unary));
  delete[] callbacks;
  std::free (unary);
  point = new point_t ();
  delete point;
}

__attribute__ ((noinline)) void
unique_agg ()
{
  std::unique_ptr<Agg> u (new Agg);
  sink (u.get ());
}

__attribute__ ((noinline)) void
made_agg ()
{
  auto u = std::make_unique<Agg> ();
  sink (u.get ());
}

__attribute__ ((noinline)) Item *
one_item ()
{
  return new Item ();
}

__attribute__ ((noinline)) Item *
items (int n)
{
  return new Item[n] ();
}

__attribute__ ((noinline)) Owned *
owned (int n)
{
  return new Owned[n];
}

__attribute__ ((noinline)) ns::Box<int> *
box ()
{
  return new ns::Box<int> ();
}

__attribute__ ((noinline)) Base *
derived ()
{
  return new Derived ();
}

__attribute__ ((noinline)) int
vector_of_items (int n)
{
  std::vector<Item> v;
  v.reserve (n);
  for (int i = 0; i < n; i++)
    v.push_back (Item ());
  return (int) v.size ();
}

int
main ()
{
  int sum = 0;
  for (int i = 0; i < 2; i++)
    {
      Item *p = one_item ();
      Item *q = items (5);
      Owned *o = owned (3);
      ns::Box<int> *b = box ();
      Base *d = derived ();
      sum += p->a + q[4].a + o[2].x + b->v + d->b;
      delete p;
      delete[] q;
      delete[] o;
      delete b;
      delete d;
      sum += vector_of_items (7);
      unique_agg ();
      made_agg ();
      function_pointers ();
    }
  return sum == 16 ? 0 : 1;
}

// { dg-final { memprof-record fn=_Z8one_itemv alloc_count==2 total_size==32 type=Item type_size==16 } }
// { dg-final { memprof-record fn=_Z5itemsi alloc_count==2 total_size==160 type=Item type_size==16 } }
// { dg-final { memprof-record fn=_Z5ownedi alloc_count==2 type=Owned type_size==4 } }
// { dg-final { memprof-record fn=_Z3boxv alloc_count==2 type=ns::Box<int> type_size==32 } }
// { dg-final { memprof-record fn=_Z7derivedv alloc_count==2 type=Derived type_size==24 } }
// { dg-final { memprof-record file=new_allocator.h alloc_count==2 total_size==224 type=Item type_size==16 } }
// { dg-final { memprof-dump-scan {^type:        ns::Box<int> \(32 bytes\)$} } }
// { dg-final { memprof-record fn=_Z10unique_aggv alloc_count==2 total_size==48 type=Agg type_size==24 } }
// { dg-final { memprof-record file=unique_ptr.h alloc_count==2 total_size==48 type=Agg type_size==24 } }
// A function pointer by its typedef ("typedef void (* fn)()" before)
// and without one ("int (*<T66d>) (int)" before).
// { dg-final { memprof-dump-scan {^type:        ns::callback \(8 bytes\)$} } }
// { dg-final { memprof-dump-scan {^type:        int \(\*\)\(int\) \(8 bytes\)$} } }
// { dg-final { memprof-dump-scan {^type:        point_t \(16 bytes\)$} } }
