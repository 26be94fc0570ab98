// A type of the C++ standard library's own (a std::map's tree node): the
// fields only libstdc++.so's uninstrumented code touches (the node's
// colour and parent, set when the tree rebalances) count no accesses, so
// no field is called cold and there is no suggestion to move any.  The
// node's storage for its element (__aligned_membuf<pair<...> >) shows the
// element's own fields, not one opaque byte array.
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <map>
#include <memory>

// Empty members hold no data: a std::unique_ptr's default deleter and a
// [[no_unique_address]] tag show no "(padding)" row over the fields
// they share their bytes with.
struct Empty
{
};

struct Node
{
  std::unique_ptr<long> p;
  long hits;
};

struct Tagged
{
  [[no_unique_address]] Empty tag;
  long key;
  long val;
};

static Node *volatile node;
static Tagged *volatile tagged;

int
main ()
{
  std::map<long, long> m;
  for (long i = 0; i < 100; i++)
    m[i * 7 % 101] = i;
  node = new Node ();
  tagged = new Tagged ();
  for (int i = 0; i < 10; i++)
    node->hits += tagged->key;
  delete node;
  delete tagged;
  long sum = 0;
  for (int r = 0; r < 10; r++)
    for (const auto &kv : m)
      sum += kv.second;
  return sum == 49500 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^type: +std::_Rb_tree_node<std::pair<long int const, long int> >, 48 bytes} } } */
/* { dg-final { memprof-fields-scan {^suggestion: none: std::_Rb_tree_node<std::pair<long int const, long int> > is the C\+\+ standard library's; its compiled code \(libstdc\+\+\.so\) is not instrumented, so the fields only it touches are not counted$} } } */
/* { dg-final { memprof-fields-scan-not {\[cold\]} } } */
/* { dg-final { memprof-record file=new_allocator.h alloc_count==100 fields(_M_storage.first).accesses>=100 fields(_M_storage.second).accesses>=1100 fields(_M_storage.second).cold==0 } } */
/* { dg-final { memprof-fields-scan-not {_M_storage\._M_storage} } } */
/* { dg-final { memprof-fields-scan {^type: +Tagged, 16 bytes} } } */
/* { dg-final { memprof-fields-scan {^type: +Node, 16 bytes} } } */
/* { dg-final { memprof-fields-scan-not {tag\.\(padding\)|_Head_base::\(padding\)} } } */
