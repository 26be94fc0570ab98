// A standard library node holding a type of the program's: the node's
// own fields (links, colour) are never cold (libstdc++.so's code that
// sets some of them is not instrumented), but the element's fields are
// the program's, so a never-touched one is cold and the suggestion is
// to move it out of the element's type.  A std::list<Entry> node and a
// std::map<long, Entry> node, Entry built in place (no copy touches its
// note); and a std::map<long, long>, whose std::pair of scalars has
// nothing of the program's to move, nor has make_shared's block of a
// std::deque (libsass's make_shared<std::deque<Node>>: the deque's own
// members were called cold and moving them out suggested).
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <deque>
#include <list>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

struct Entry
{
  long hits;
  char note[64];
  explicit Entry (long h) : hits (h) {}
};

int
main ()
{
  std::list<Entry> l;
  std::map<long, Entry> m;
  std::map<long, long> plain;
  std::shared_ptr<std::deque<long> > shared = std::make_shared<std::deque<long> > ();
  for (long i = 0; i < 1000; i++)
    {
      l.emplace_back (i);
      m.emplace (std::piecewise_construct, std::forward_as_tuple (i),
                 std::forward_as_tuple (i));
      plain[i] = i;
      shared->push_back (i);
    }
  long s = 0;
  for (int r = 0; r < 20; r++)
    {
      for (const Entry &e : l)
        s += e.hits;
      for (const auto &kv : m)
        s += kv.second.hits;
      for (const auto &kv : plain)
        s += kv.second;
    }
  s += shared->size ();
  return s == 3 * 20 * 499500 + 1000 ? 0 : 1;
}

/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(_M_storage\.note: 64 bytes\) out of the program's type that std::_List_node<Entry> holds: each would take 24 bytes of cache lines per object instead of 80 \(56 saved per object, 56000 over its 1000 objects\)$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(_M_storage\.second\.note: 64 bytes\) out of the program's type that std::_Rb_tree_node<std::pair<long int const, Entry> > holds: } } } */
/* { dg-final { memprof-fields-scan {^suggestion: none: std::_Rb_tree_node<std::pair<long int const, long int> > is the C\+\+ standard library's} } } */
/* { dg-final { memprof-fields-scan {^ +24 +64 +0 +0\.0%  _M_storage\.note  \[cold\]$} } } */
/* { dg-final { memprof-fields-scan {^ +48 +64 +0 +0\.0%  _M_storage\.second\.note  \[cold\]$} } } */
/* { dg-final { memprof-fields-scan {^ +8 +8 +0 +0\.0%  _List_node_base::_M_prev  \[the library's: its accesses in libstdc\+\+\.so are not counted\]$} } } */
/* { dg-final { memprof-fields-scan {^suggestion: none: std::_Sp_counted_ptr_inplace<std::deque<long int>, std::allocator<[^\n]*> is the C\+\+ standard library's} } } */
/* { dg-final { memprof-fields-scan {^suggestion: none: std::_Sp_counted_ptr_inplace<std::deque<long int, std::allocator<long int> >, std::allocator<[^\n]*> is the C\+\+ standard library's} --full-names } } */
/* { dg-final { memprof-fields-scan-not {(_List_node_base|_Rb_tree_node_base)::[^\n]*\[cold\]} } } */
/* { dg-final { memprof-fields-scan-not {_M_storage[^\n]*_M_impl[^\n]*\[cold\]} } } */
/* A node's own fields, which libstdc++.so's rebalancing and iterating
   code uses uncounted, say so.  */
/* { dg-final { memprof-fields-scan {^ +8 +8 +[0-9]+ +[0-9.]+%  _Rb_tree_node_base::_M_parent  \[the library's: its accesses in libstdc\+\+\.so are not counted\]$} } } */
