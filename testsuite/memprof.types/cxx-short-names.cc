// The text report shortens the C++ standard library's names: default
// template arguments left out, std::__cxx11:: as std::, basic_string of
// char as std::string (frames of ninja's
// std::map<std::string, std::string>::operator[] took 480 to 620
// characters).  --full-names keeps them as the debug information has
// them, and so does the JSON document.
// { dg-do run }

#include <map>
#include <memory>
#include <string>
#include <vector>

typedef std::map<std::string, std::vector<int> > table;

__attribute__ ((noinline)) void
fill (table &m)
{
  m[std::string (40, 'k')].push_back (1);
}

int
main ()
{
  table m;
  fill (m);
  std::unique_ptr<std::wstring> u (new std::wstring (L"wide"));
  return m.size () == 1 ? 0 : 1;
}

// { dg-final { memprof-dump-scan {^type: +std::_Rb_tree_node<std::pair<const std::string, std::vector<int> > > \(88 bytes\)$} } }
// { dg-final { memprof-dump-scan {^by std::map<std::string, std::vector<int> >::operator\[\]\(std::string&&\) \(} } }
// { dg-final { memprof-dump-scan {^type: +std::wstring \(32 bytes\)$} } }
// { dg-final { memprof-dump-scan-not {__cxx11|std::vector<int, std::allocator<int> >} } }
// { dg-final { memprof-dump-scan {^type: +std::_Rb_tree_node<std::pair<const std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::vector<int, std::allocator<int> > > > \(88 bytes\)$} --full-names } }
// { dg-final { memprof-dump-scan {^by std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::vector<int, std::allocator<int> >, std::less<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >, std::allocator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, std::vector<int, std::allocator<int> > > > >::operator\[\]} --full-names } }
// The node's allocator: GCC 12's std::__new_allocator, GCC 11's
// __gnu_cxx::new_allocator.
// { dg-final { set node_alloc [expr { [memprof_gcc_major] >= 12 ? "_ZNSt15__new_allocatorISt13_Rb_tree_nodeISt4pairIKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt6vectorIiSaIiEEEEE8allocateEmPKv" : "_ZN9__gnu_cxx13new_allocatorISt13_Rb_tree_nodeISt4pairIKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt6vectorIiSaIiEEEEE8allocateEmPKv" }] } }
// { dg-final { memprof-record file=new_allocator.h,fn=$node_alloc type=std::_Rb_tree_node<std::pair<conststd::__cxx11::basic_string<char,std::char_traits<char>,std::allocator<char>>,std::vector<int,std::allocator<int>>>> } }
