// Address -> code scope index of a DWARF compilation unit.
#include "scope_index.h"

#include <algorithm>
#include <dwarf.h>

namespace memprof {

ScopeIndex::ScopeIndex (Dwarf_Die *cu)
{
  walk (cu, -1, 0, 0);
  std::sort (ranges_.begin (), ranges_.end (),
             [this] (const Range &a, const Range &b) {
               if (a.low != b.low)
                 return a.low < b.low;
               return nodes_[a.node].depth < nodes_[b.node].depth;
             });
}

// Tags whose children may hold code scopes.
static bool
may_hold_code (int tag)
{
  switch (tag)
    {
    case DW_TAG_compile_unit:
    case DW_TAG_partial_unit:
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_namespace:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_module:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
      return true;
    default:
      return false;
    }
}

void
ScopeIndex::walk (Dwarf_Die *die, int parent, int depth, int level)
{
  // Real DWARF nests a few dozen levels; a bound keeps hostile or broken
  // debug info from exhausting the stack.
  if (level > 256)
    return;
  Dwarf_Die child;
  if (dwarf_child (die, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);
      if (!may_hold_code (tag))
        continue;
      int here = parent, here_depth = depth;
      if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
        {
          Dwarf_Addr base, start, end;
          ptrdiff_t off = 0;
          size_t first = ranges_.size ();
          int id = static_cast<int> (nodes_.size ());
          while ((off = dwarf_ranges (&child, off, &base, &start, &end)) > 0)
            if (end > start)
              ranges_.push_back ({ start, end, id });
          if (ranges_.size () == first)
            {
              // No code: an abstract instance or a declaration.
              if (tag == DW_TAG_subprogram)
                continue;
            }
          else
            {
              nodes_.push_back ({ child, parent, depth + 1 });
              here = id;
              here_depth = depth + 1;
            }
        }
      walk (&child, here, here_depth, level + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

std::vector<Dwarf_Die>
ScopeIndex::scopes_at (uint64_t addr) const
{
  std::vector<Dwarf_Die> out;
  // The innermost scope holding ADDR is the containing range with the
  // largest start (the deepest on ties): scan back from ADDR until one
  // contains it.  Ranges that ended before ADDR are skipped; they lie
  // inside the enclosing function, so the scan stays short.
  auto it = std::upper_bound (ranges_.begin (), ranges_.end (), addr,
                              [] (uint64_t a, const Range &r) {
                                return a < r.low;
                              });
  int node = -1;
  while (it != ranges_.begin ())
    {
      --it;
      if (addr < it->high)
        {
          node = it->node;
          break;
        }
    }
  for (; node >= 0; node = nodes_[node].parent)
    {
      out.push_back (nodes_[node].die);
      if (dwarf_tag (&out.back ()) == DW_TAG_subprogram)
        break;
    }
  return out;
}

} // namespace memprof
