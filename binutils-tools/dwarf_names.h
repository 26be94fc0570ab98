// The names frames show for functions the debug information gives no
// linkage name.  GCC emits DW_AT_linkage_name for public functions
// only: a C++ function of internal linkage (in an anonymous namespace,
// static, a member of a class of such a namespace, a template instance
// over such a type) has only DW_AT_name ("allocate").  Its name is
// built from the scopes of its declaration, as the demangler prints
// the name of a function that has one:
// "pugi::impl::(anonymous namespace)::xml_allocator::allocate(unsigned long, void*&)".
#ifndef MEMPROF_TOOLS_DWARF_NAMES_H
#define MEMPROF_TOOLS_DWARF_NAMES_H

#include <elfutils/libdw.h>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace memprof {

// The names of one module's functions.  Not thread-safe: the caller
// holds the module's lock.
class FunctionNames
{
public:
  // The name of a frame of DIE, a subprogram or an inlined_subroutine:
  // the linkage name when there is one (the reports demangle it); for
  // a C++ function without one, its name built from its scopes, with
  // its parameter types ("(anonymous namespace)::Pool::grab(int)
  // const"), or without them ("ns::f") when a parameter's type has no
  // name the demangler would print (a lambda's, an unnamed struct's); a
  // function of another language or an extern "C" one, or whose scopes
  // cannot be named, keeps DW_AT_name.  Null when DIE has no name.
  const char *frame_name (Dwarf_Die *die);

private:
  bool parent (Dwarf_Die *die, Dwarf_Die *result);
  void index_unit (Dwarf_Die *unit);
  void index_scope (Dwarf_Die *die, const Dwarf_Die &scope,
                    const std::string *spelled, int level);
  void name_by_typedef (Dwarf_Die *die, const char *name,
                        const Dwarf_Die &scope, const std::string *spelled);
  std::string abi_tag (Dwarf_Die *ret, const std::string &signature,
                       int depth);
  bool respell (const std::string &spelled, std::string &out, int depth);
  bool scope_prefix (Dwarf_Die *scope, std::string &out, int depth);
  bool scope_name (Dwarf_Die *scope, std::string &out, int depth);
  std::string function_name (Dwarf_Die *decl, bool with_return, int depth);
  bool returning (Dwarf_Die *ret, const std::string &full, std::string &out,
                  int depth);
  bool signature (Dwarf_Die *decl, std::string &out, int depth);
  bool template_args (Dwarf_Die *die, const char *name, std::string &out,
                      int depth);
  bool dwarf_template_args (Dwarf_Die *die, std::vector<std::string> &out,
                            int depth);
  bool allocator_value_type (Dwarf_Die *die, std::vector<std::string> &out,
                             int depth);
  bool template_arg (Dwarf_Die *arg, std::string &out, int depth);
  bool type_name (Dwarf_Die *type, const std::string &decl,
                  std::string &out, int depth);
  bool qualified_type (Dwarf_Die *type, const std::string &decl,
                       std::string &out, int depth);
  bool named_type (Dwarf_Die *type, std::string &out, int depth);
  bool class_name (Dwarf_Die *type, std::string &out, int depth);
  bool function_type (Dwarf_Die *type, const std::string &decl,
                      std::string &out, int depth);
  bool array_type (Dwarf_Die *type, const std::string &decl,
                   std::string &out, int depth);
  bool member_pointer (Dwarf_Die *type, const std::string &decl,
                       std::string &out, int depth);
  bool parameters (Dwarf_Die *die, std::string &out, std::string &cv,
                   int depth);

  // Parents of the DIEs that may name a scope, by DIE address, for the
  // units indexed so far (libdw has no parent links).
  std::unordered_map<const void *, Dwarf_Die> parents_;
  std::unordered_set<const void *> indexed_units_;
  // The classes of those units by their names as GCC spells them in
  // template arguments ("std::allocator<long unsigned int>").
  std::unordered_map<std::string, Dwarf_Die> by_spelling_;
  // Unnamed classes by the typedef that names them.
  std::unordered_map<const void *, const char *> typedef_names_;
  // By declaration DIE address: frame names, and scope prefixes ("ns::C::"),
  // with whether they could be built.
  std::unordered_map<const void *, std::string> frame_names_;
  std::unordered_map<const void *, std::pair<bool, std::string>> prefixes_;
};

} // namespace memprof

#endif
