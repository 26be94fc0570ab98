// C++ layouts for type-layout.exp: base classes (one with a vtable, one
// empty), a class template in a namespace, a class holding one.
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

struct Node
{
  ns::Item<int> item;
  Node *next;
};

Node *volatile sink;

int
main ()
{
  sink = new Node;
  delete sink;
  return 0;
}
