// Shorter spellings of C++ standard library names for the text reports
// (--full-names keeps them whole): std::string for
// std::__cxx11::basic_string<char, std::char_traits<char>,
// std::allocator<char> >, the containers' default template arguments
// left out (std::vector<int>, std::map<long, std::string>), and
// std::__cxx11:: as std::.  Frames of ninja's std::map<std::string,
// std::string>::operator[] were 480 to 620 characters long (about 120
// now), its report 526 KB (363 KB now).  The JSON
// document and the exports keep the names as the debug information has
// them.
#ifndef MEMPROF_TOOLS_SHORT_NAMES_H
#define MEMPROF_TOOLS_SHORT_NAMES_H

#include <string>

namespace memprof {

// NAME (a demangled function or a type name) with the standard
// library's default arguments left out; NAME itself when it has none.
std::string short_cxx_name (const std::string &name);

// Whether the text reports shorten names (default: yes).
void set_short_names (bool on);
bool short_names ();

// NAME as the text reports show it when short_names: short_cxx_name,
// and an anonymous namespace spelled as the demangler spells it in
// function names, "(anonymous namespace)", not GCC's "{anonymous}".
std::string display_name (const std::string &name);

} // namespace memprof

#endif
