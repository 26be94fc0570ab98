// C++ layouts for type-layout.exp: base classes (one with a vtable, one
// empty), a class template in a namespace, a class holding one, a
// template named without its default argument.
namespace ns
{
struct Base
{
  long id;
  virtual ~Base () {}
};
struct Empty
{
};
template <typename T> struct Item : Base, Empty
{
  T value;
  char tag;
  int counts[3];
};
}

// DWARF names it Buf<int, 4>; GCC prints Buf<int>.
template <typename T, int N = 4> struct Buf
{
  T v[N];
  int used;
};

struct Node
{
  ns::Item<int> item;
  Node *next;
  Buf<int> buf;
};

// Poly's key function is in layout-poly.cc, so GCC describes Poly fully
// only there; here it is a declaration, and Derived's base must be found
// in the other unit.
struct Poly
{
  virtual void key ();
  long pid;
};

struct Derived : Poly
{
  int extra;
};

Node *volatile sink;
Derived *volatile derived_sink;

int
main ()
{
  sink = new Node;
  delete sink;
  derived_sink = new Derived;
  return 0;
}
