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

Node *volatile sink;

int
main ()
{
  sink = new Node;
  delete sink;
  return 0;
}
