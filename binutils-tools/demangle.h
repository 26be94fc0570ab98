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
// type ("ns::make<double>" for "double* ns::make<double>(int)").
bool function_name_matches (const std::string &linkage,
                            const std::string &name);

} // namespace memprof

#endif
