// An address -> code scope index of one DWARF compilation unit, built by
// one walk of the unit's DIEs.  It replaces dwarf_getscopes, which walks
// the whole unit for every address: with large C++ units that cost
// milliseconds per PC.
#ifndef MEMPROF_TOOLS_SCOPE_INDEX_H
#define MEMPROF_TOOLS_SCOPE_INDEX_H

#include <cstdint>
#include <elfutils/libdw.h>
#include <vector>

namespace memprof {

class ScopeIndex
{
public:
  explicit ScopeIndex (Dwarf_Die *cu);

  // The subprogram and inlined_subroutine DIEs containing ADDR (a DWARF
  // address), innermost first, ending with the subprogram.
  std::vector<Dwarf_Die> scopes_at (uint64_t addr) const;

private:
  struct Node
  {
    Dwarf_Die die;
    int parent;                 // Enclosing node, or -1.
    int depth;
  };
  struct Range
  {
    uint64_t low, high;
    int node;
  };
  void walk (Dwarf_Die *die, int parent, int depth, int level);

  std::vector<Node> nodes_;
  std::vector<Range> ranges_;   // Sorted by low, then by depth.
};

} // namespace memprof

#endif
