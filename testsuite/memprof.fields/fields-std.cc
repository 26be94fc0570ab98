// A type of the C++ standard library's own (a std::map's tree node): the
// fields only libstdc++.so's uninstrumented code touches (the node's
// colour and parent, set when the tree rebalances) count no accesses, so
// no field is called cold and there is no suggestion to move any.  The
// node's storage for its element (__aligned_membuf<pair<...> >) shows the
// element's own fields, not one opaque byte array.
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <map>

int
main ()
{
  std::map<long, long> m;
  for (long i = 0; i < 100; i++)
    m[i * 7 % 101] = i;
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
