// C++ names as users read them: demangling a linkage name, and matching
// a name the user typed (memprof-dump --function) against a frame's.
#ifndef MEMPROF_TOOLS_DEMANGLE_H
#define MEMPROF_TOOLS_DEMANGLE_H

#include <string>

namespace memprof {

// NAME demangled when it is a C++ linkage name, else NAME.
std::string demangle (const std::string &name);

// Whether a frame's function, LINKAGE (as the profile stores it), is
// what the user named: NAME is the linkage name itself, the demangled
// name, or the demangled name without its parameter list
// ("ns::Table::add" for every overload of it) or a template's return
// type ("ns::make<double>" for "double* ns::make<double>(int)"), or
// any of those without its outer scopes, as gdb matches a function's
// name ("Table::add" and "add" for "ns::Table::add(long)", "grab" and
// "Pool::grab" for "(anonymous namespace)::Pool::grab(int) const").  A function without a
// linkage name, which the symbolizer named from its scopes
// (dwarf_names.h), matches as its demangled name would.
bool function_name_matches (const std::string &linkage,
                            const std::string &name);

// The name without scopes, template arguments and parameters ("grab")
// of a function the symbolizer named from its scopes
// ("(anonymous namespace)::Pool::grab(int) const"): what GCC's
// DW_AT_name, and so the compiler's -fheapprof-use pass, calls it
// without its template arguments.  A linkage name, a C name or a bare
// DW_AT_name comes back as it is (less template arguments).
std::string unqualified_name (const std::string &function);

// Whether FUNCTION (a linkage name, or a name as the symbolizer gives
// it) is a C++ constructor: "ns::C<int>::C(long)".
bool constructor_name (const std::string &function);

// Whether NAME (qualified, as GCC prints a type or the demangler a
// function) is in the C++ standard library's implementation: std:: or
// __gnu_cxx::.
inline bool
standard_library_name (const std::string &name)
{
  return name.compare (0, 5, "std::") == 0
         || name.compare (0, 11, "__gnu_cxx::") == 0;
}

// Whether FUNCTION is the C++ standard library's (std::, __gnu_cxx::):
// a container's code inlined into the program, or libstdc++.so's.
bool library_function (const std::string &function);

} // namespace memprof

#endif
