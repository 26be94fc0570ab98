// Type layouts from DWARF (libdw).
#include "type_layout.h"

#include "demangle.h"
#include "diag.h"
#include "symbolizer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <unordered_map>
#include <unordered_set>

namespace memprof {

// Every struct, class, union and typedef of a module by qualified name.
struct TypeIndex
{
  std::string problem;          // Non-empty: the module is unusable.
  std::unordered_map<std::string, std::vector<Dwarf_Die>> by_name;
  // Base and enumeration types: named, but with no fields.
  std::unordered_set<std::string> scalars;
  // Records by their name without template arguments: GCC prints a
  // template's name without its default arguments (std::set<int>),
  // DWARF names it with them (set<int, std::less<int>, ...>).
  std::unordered_map<std::string,
                     std::vector<std::pair<std::string, Dwarf_Die>>>
    by_template;
  // The DIE offsets of the standard library's records (std::,
  // __gnu_cxx::), std::pair's apart: a member of such a type in a
  // program's record is one field (Flattener::record).
  std::unordered_set<Dwarf_Off> library_records, pair_records;
};

namespace {

// Copies of one type per translation unit compared before one is taken.
constexpr size_t kMaxCompared = 16;
// Instantiations of one template compared before giving up.
constexpr size_t kMaxInstantiations = 256;
// Arrays folded inside one another deeper than this are one leaf.
constexpr size_t kMaxFoldDepth = 8;

const char *
die_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  return dwarf_attr_integrate (die, DW_AT_name, &attr)
           ? dwarf_formstring (&attr) : nullptr;
}

// The C library typedef MEMBER's type names through qualifiers, when it
// is one whose objects only library functions use (kLibraryStateDetail),
// or null.
const char *
library_state_typedef (Dwarf_Die *member)
{
  static const char *const names[] = {
    "pthread_mutex_t", "pthread_cond_t", "pthread_rwlock_t",
    "pthread_spinlock_t", "pthread_barrier_t", "pthread_once_t",
    "pthread_mutexattr_t", "pthread_condattr_t", "pthread_rwlockattr_t",
    "pthread_barrierattr_t", "pthread_attr_t", "sem_t", "mtx_t", "cnd_t",
    "once_flag", "jmp_buf", "sigjmp_buf", "mbstate_t", "fpos_t",
  };
  Dwarf_Attribute attr;
  Dwarf_Die t;
  if (!dwarf_attr_integrate (member, DW_AT_type, &attr)
      || !dwarf_formref_die (&attr, &t))
    return nullptr;
  for (int steps = 0; steps < 8; steps++)
    {
      int tag = dwarf_tag (&t);
      if (tag == DW_TAG_typedef)
        {
          const char *n = die_name (&t);
          if (n)
            for (const char *l : names)
              if (strcmp (n, l) == 0)
                return l;
        }
      else if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type)
        return nullptr;
      if (!dwarf_attr_integrate (&t, DW_AT_type, &attr)
          || !dwarf_formref_die (&attr, &t))
        return nullptr;
    }
  return nullptr;
}

bool
die_udata (Dwarf_Die *die, unsigned int at, uint64_t &v)
{
  Dwarf_Attribute attr;
  Dwarf_Word w;
  if (!dwarf_attr_integrate (die, at, &attr) || dwarf_formudata (&attr, &w))
    return false;
  v = w;
  return true;
}

// NAME without its template arguments: "ns::X<int>::Y<char>" ->
// "ns::X::Y".
std::string
without_template_args (const std::string &name)
{
  std::string out;
  int depth = 0;
  for (char c : name)
    if (c == '<')
      depth++;
    else if (c == '>')
      depth = depth > 0 ? depth - 1 : 0;
    else if (depth == 0)
      out += c;
  return out;
}

bool
is_record_tag (int tag)
{
  return tag == DW_TAG_structure_type || tag == DW_TAG_class_type
         || tag == DW_TAG_union_type;
}

// DIE's type with typedefs and qualifiers removed.
bool
member_type (Dwarf_Die *die, Dwarf_Die &type)
{
  Dwarf_Attribute attr;
  Dwarf_Die raw;
  if (!dwarf_attr_integrate (die, DW_AT_type, &attr)
      || !dwarf_formref_die (&attr, &raw))
    return false;
  return dwarf_peel_type (&raw, &type) == 0;
}

uint64_t
type_size (Dwarf_Die *type)
{
  Dwarf_Word size;
  return dwarf_aggregate_size (type, &size) == 0 ? size : 0;
}

uint64_t
type_align (Dwarf_Die *type, int depth = 0)
{
  uint64_t a;
  if (die_udata (type, DW_AT_alignment, a) && a)
    return a;
  int tag = dwarf_tag (type);
  if (tag == DW_TAG_array_type)
    {
      Dwarf_Die elem;
      return member_type (type, elem) && depth < 32
               ? type_align (&elem, depth + 1) : 1;
    }
  if (is_record_tag (tag))
    {
      uint64_t best = 1;
      Dwarf_Die child;
      if (depth < 32 && dwarf_child (type, &child) == 0)
        do
          {
            int ct = dwarf_tag (&child);
            Dwarf_Die t;
            if ((ct == DW_TAG_member || ct == DW_TAG_inheritance)
                && !dwarf_hasattr (&child, DW_AT_declaration)
                && member_type (&child, t))
              best = std::max (best, dwarf_hasattr (&child, DW_AT_bit_size)
                                       ? 1 : type_align (&t, depth + 1));
          }
        while (dwarf_siblingof (&child, &child) == 0);
      return best;
    }
  uint64_t size = type_size (type);
  uint64_t align = 1;
  while (align < size && align < 16)
    align *= 2;
  return align;
}

// The element type and number of elements of array type ARRAY (all
// dimensions); COUNT 0 when unknown (a flexible array member).
bool
array_shape (Dwarf_Die *array, Dwarf_Die &elem, uint64_t &count)
{
  if (!member_type (array, elem))
    return false;
  count = 1;
  Dwarf_Die sub;
  if (dwarf_child (array, &sub) != 0)
    return count = 0, true;
  do
    {
      if (dwarf_tag (&sub) != DW_TAG_subrange_type)
        continue;
      uint64_t n = 0, lower = 0, upper;
      if (!die_udata (&sub, DW_AT_count, n))
        {
          if (!die_udata (&sub, DW_AT_upper_bound, upper))
            return count = 0, true;
          die_udata (&sub, DW_AT_lower_bound, lower);
          n = upper >= lower ? upper - lower + 1 : 0;
        }
      count *= n;
    }
  while (dwarf_siblingof (&sub, &sub) == 0);
  return true;
}

// The byte offset of member DIE within its parent: a constant, or the
// DW_OP_plus_uconst expression older DWARF uses.  False for a virtual
// base (a run-time offset).
bool
member_offset (Dwarf_Die *die, uint64_t &off)
{
  Dwarf_Attribute attr;
  off = 0;
  if (!dwarf_attr_integrate (die, DW_AT_data_member_location, &attr))
    return true;        // A union member.
  Dwarf_Word w;
  if (dwarf_formudata (&attr, &w) == 0)
    return off = w, true;
  Dwarf_Op *ops;
  size_t n;
  if (dwarf_getlocation (&attr, &ops, &n) == 0 && n == 1
      && ops[0].atom == DW_OP_plus_uconst)
    return off = ops[0].number, true;
  return false;
}

// The qualified name of DIE: its enclosing namespaces and classes.
std::string
qualified_name (Dwarf_Die *die)
{
  const char *n = die_name (die);
  if (!n)
    return "";
  std::string name = n;
  Dwarf_Die *scopes = nullptr;
  int count = dwarf_getscopes_die (die, &scopes);
  for (int i = 1; i < count - 1; i++)
    {
      int tag = dwarf_tag (&scopes[i]);
      const char *sn = die_name (&scopes[i]);
      if (tag == DW_TAG_namespace)
        name = std::string (sn ? sn : "{anonymous}") + "::" + name;
      else if (is_record_tag (tag) && sn)
        name = std::string (sn) + "::" + name;
    }
  free (scopes);
  return name;
}

class Flattener
{
public:
  Flattener (std::vector<LayoutField> &out, const TypeIndex &index)
    : out_ (out), index_ (index)
  {}

  // Leaves of record type TYPE placed at BASE, names under PREFIX.
  // WHOLE_LIBRARY_MEMBERS: TYPE is the program's (or a std::pair holding
  // the program's data), so a member of a standard library type (a
  // std::string, std::vector, std::unique_ptr) is one field: its parts
  // are the library's, only the member as a whole can move.
  void record (Dwarf_Die *type, uint64_t base, const std::string &prefix,
               const std::vector<std::pair<uint64_t, uint64_t>> &repeats,
               int depth, bool whole_library_members);

  // Whether TYPE (a record) is the standard library's, and (PAIR) a
  // std::pair.
  bool library (Dwarf_Die *type) const
  {
    return index_.library_records.count (dwarf_dieoffset (type)) != 0;
  }
  bool pair (Dwarf_Die *type) const
  {
    return index_.pair_records.count (dwarf_dieoffset (type)) != 0;
  }

private:
  void leaf (LayoutField::Kind kind, std::string name, uint64_t offset,
             uint64_t size, uint64_t align,
             const std::vector<std::pair<uint64_t, uint64_t>> &repeats,
             std::string detail = "")
  {
    LayoutField f;
    f.name = std::move (name);
    f.kind = kind;
    f.offset = offset;
    f.size = size;
    f.align = align;
    f.repeats = repeats;
    f.detail = std::move (detail);
    out_.push_back (std::move (f));
  }

  // A class declared only here (GCC describes a class with virtual
  // functions fully in the unit that emits its vtable) is replaced by
  // its definition from another unit, found by qualified name.
  void definition (Dwarf_Die &type) const
  {
    if (!is_record_tag (dwarf_tag (&type))
        || !dwarf_hasattr (&type, DW_AT_declaration))
      return;
    auto it = index_.by_name.find (qualified_name (&type));
    if (it != index_.by_name.end ())
      for (Dwarf_Die d : it->second)
        if (is_record_tag (dwarf_tag (&d)))
          {
            type = d;
            return;
          }
  }

  std::vector<LayoutField> &out_;
  const TypeIndex &index_;
};

// "a | b": the names of union UNION's members.
std::string
union_members (Dwarf_Die *u)
{
  std::string s;
  Dwarf_Die child;
  if (dwarf_child (u, &child) == 0)
    do
      if (dwarf_tag (&child) == DW_TAG_member)
        {
          const char *n = die_name (&child);
          s += (s.empty () ? "" : " | ") + std::string (n ? n : "?");
        }
    while (dwarf_siblingof (&child, &child) == 0);
  return s;
}

// Whether TYPE is libstdc++'s __gnu_cxx::__aligned_membuf<T> or
// __aligned_buffer<T> (bytes holding one T, constructed in place); ELEM
// its T, with its definition.
bool
storage_element (Dwarf_Die *type, Dwarf_Die &elem)
{
  const char *n = die_name (type);
  if (!n || (std::strncmp (n, "__aligned_membuf<", 17) != 0
             && std::strncmp (n, "__aligned_buffer<", 17) != 0))
    return false;
  Dwarf_Die child;
  if (dwarf_child (type, &child) == 0)
    do
      if (dwarf_tag (&child) == DW_TAG_template_type_parameter)
        return member_type (&child, elem);
    while (dwarf_siblingof (&child, &child) == 0);
  return false;
}

bool
has_data_members (Dwarf_Die *type)
{
  Dwarf_Die child;
  if (dwarf_child (type, &child) == 0)
    do
      {
        int tag = dwarf_tag (&child);
        Dwarf_Die t;
        // A member of an empty class type ([[no_unique_address]]
        // Deleter) is no data either.
        if (tag == DW_TAG_member && !dwarf_hasattr (&child, DW_AT_declaration)
            && (!member_type (&child, t)
                || dwarf_tag (&t) == DW_TAG_union_type
                || !is_record_tag (dwarf_tag (&t)) || has_data_members (&t)))
          return true;
        if (tag == DW_TAG_inheritance && member_type (&child, t)
            && has_data_members (&t))
          return true;
      }
    while (dwarf_siblingof (&child, &child) == 0);
  return false;
}

void
Flattener::record (Dwarf_Die *type, uint64_t base, const std::string &prefix,
                   const std::vector<std::pair<uint64_t, uint64_t>> &repeats,
                   int depth, bool whole_library_members)
{
  // Byte ranges (relative) the members cover, for the padding.
  std::vector<std::pair<uint64_t, uint64_t>> covered;
  // Where the members start: a member whose class is only declared here
  // (std::ifstream: libstdc++ instantiates it, the program's debug info
  // has no size) reaches to the next one.
  std::vector<uint64_t> starts;
  Dwarf_Die child;
  if (dwarf_child (type, &child) == 0)
    do
      {
        int tag = dwarf_tag (&child);
        uint64_t off;
        if ((tag == DW_TAG_member || tag == DW_TAG_inheritance)
            && !dwarf_hasattr (&child, DW_AT_declaration)
            && member_offset (&child, off))
          starts.push_back (off);
      }
    while (dwarf_siblingof (&child, &child) == 0);
  std::sort (starts.begin (), starts.end ());
  if (dwarf_child (type, &child) == 0)
    do
      {
        int tag = dwarf_tag (&child);
        if ((tag != DW_TAG_member && tag != DW_TAG_inheritance)
            || dwarf_hasattr (&child, DW_AT_declaration))
          continue;
        Dwarf_Die t;
        uint64_t off;
        if (!member_type (&child, t) || !member_offset (&child, off))
          continue;
        definition (t);
        const char *n = die_name (&child);
        std::string name = n ? n : "";
        uint64_t size = type_size (&t);
        int ttag = dwarf_tag (&t);
        uint64_t bits;
        if (die_udata (&child, DW_AT_bit_size, bits))
          {
            uint64_t bitpos;
            if (!die_udata (&child, DW_AT_data_bit_offset, bitpos))
              {
                // DWARF 2-3: DW_AT_bit_offset counts from the storage
                // unit's most significant bit (little-endian here).
                uint64_t storage = size, msb = 0;
                die_udata (&child, DW_AT_byte_size, storage);
                die_udata (&child, DW_AT_bit_offset, msb);
                bitpos = off * 8 + storage * 8 - msb - bits;
              }
            if (bits == 0)
              continue;
            uint64_t first = bitpos / 8, end = (bitpos + bits + 7) / 8;
            uint64_t lo = bitpos - first * 8;
            leaf (LayoutField::BITFIELD, prefix + name, base + first,
                  end - first, 1, repeats,
                  format ("bits %llu..%llu", (unsigned long long) lo,
                          (unsigned long long) (lo + bits - 1)));
            covered.emplace_back (first, end);
            continue;
          }
        if (size == 0 && is_record_tag (ttag)
            && dwarf_hasattr (&t, DW_AT_declaration))
          {
            auto next = std::upper_bound (starts.begin (), starts.end (), off);
            uint64_t end = next != starts.end () ? *next : type_size (type);
            if (end > off && !name.empty ())
              {
                leaf (LayoutField::FIELD, prefix + name, base + off, end - off,
                      1, repeats);
                covered.emplace_back (off, end);
              }
            continue;
          }
        if (size == 0)
          continue;     // A flexible array member: beyond the type.
        covered.emplace_back (off, off + size);
        if (tag == DW_TAG_inheritance)
          {
            if (!has_data_members (&t))
              {
                covered.pop_back ();    // An empty base takes no bytes.
                continue;
              }
            // A base's name without its template arguments: the field's
            // path says which base, the arguments only make it long.
            const char *bn = die_name (&t);
            record (&t, base + off,
                    prefix + (bn ? without_template_args (bn) : "(base)")
                      + "::",
                    repeats, depth + 1, whole_library_members);
            continue;
          }
        if (const char *lib = library_state_typedef (&child))
          {
            leaf (ttag == DW_TAG_union_type ? LayoutField::UNION
                                            : LayoutField::FIELD,
                  prefix + name, base + off, size, type_align (&t), repeats,
                  std::string (kLibraryStateDetail) + " (" + lib
                    + "): used inside the library, whose accesses are "
                      "not counted");
            continue;
          }
        if (ttag == DW_TAG_union_type)
          {
            std::string members = union_members (&t);
            leaf (LayoutField::UNION,
                  prefix + (name.empty () ? "{" + members + "}" : name),
                  base + off, size, type_align (&t), repeats,
                  "union of " + members);
            continue;
          }
        // An empty class member ([[no_unique_address]] Deleter in a
        // std::unique_ptr, or a tag) holds no data: no row, as an
        // empty base has none.
        if (is_record_tag (ttag) && ttag != DW_TAG_union_type
            && !has_data_members (&t))
          {
            covered.pop_back ();
            continue;
          }
        if (is_record_tag (ttag) && whole_library_members && library (&t)
            && !name.empty ())
          {
            leaf (LayoutField::FIELD, prefix + name, base + off, size,
                  type_align (&t), repeats);
            continue;
          }
        if (is_record_tag (ttag) && depth < 64)
          {
            // libstdc++'s raw storage for a container node's element (a
            // std::map node's _M_storage): the element's own fields,
            // not one opaque byte array.
            Dwarf_Die elem;
            if (storage_element (&t, elem))
              {
                definition (elem);
                // An element of the library's own (make_shared's
                // std::deque): one field, nothing of the program's in it.
                if (library (&elem) && !pair (&elem))
                  {
                    leaf (LayoutField::FIELD, prefix + name, base + off, size,
                          type_align (&t), repeats);
                    continue;
                  }
                if (type_size (&elem) == size
                    && is_record_tag (dwarf_tag (&elem)))
                  {
                    record (&elem, base + off, prefix + name + ".",
                            repeats, depth + 1,
                            !library (&elem) || pair (&elem));
                    continue;
                  }
              }
            record (&t, base + off,
                    name.empty () ? prefix : prefix + name + ".", repeats,
                    depth + 1, !library (&t) || pair (&t));
            continue;
          }
        Dwarf_Die elem;
        uint64_t count;
        if (ttag == DW_TAG_array_type && array_shape (&t, elem, count)
            && count > 0 && is_record_tag (dwarf_tag (&elem))
            && dwarf_tag (&elem) != DW_TAG_union_type
            && repeats.size () < kMaxFoldDepth && depth < 64)
          {
            uint64_t esize = type_size (&elem);
            if (esize > 0 && esize * count == size)
              {
                auto inner = repeats;
                inner.emplace_back (esize, count);
                // An array of a library type (std::string line[4]) in a
                // type of the program's: one field per element, folded.
                if (whole_library_members && library (&elem))
                  leaf (LayoutField::FIELD, prefix + name + "[]", base + off,
                        esize, type_align (&elem), inner);
                else
                  record (&elem, base + off, prefix + name + "[].", inner,
                          depth + 1, !library (&elem) || pair (&elem));
                continue;
              }
          }
        leaf (LayoutField::FIELD, prefix + name, base + off, size,
              type_align (&t), repeats);
      }
    while (dwarf_siblingof (&child, &child) == 0);

  std::sort (covered.begin (), covered.end ());
  uint64_t size = type_size (type), at = 0;
  auto pad = [&] (uint64_t from, uint64_t to) {
    leaf (LayoutField::PADDING, prefix + "(padding)", base + from, to - from,
          1, repeats);
  };
  for (const auto &c : covered)
    {
      if (c.first > at)
        pad (at, std::min (c.first, size));
      at = std::max (at, c.second);
      if (at >= size)
        break;
    }
  if (at < size)
    pad (at, size);
}

bool
same_layout (const TypeLayout &a, const TypeLayout &b)
{
  if (a.fields.size () != b.fields.size ())
    return false;
  for (size_t i = 0; i < a.fields.size (); i++)
    {
      const LayoutField &x = a.fields[i], &y = b.fields[i];
      if (x.name != y.name || x.kind != y.kind || x.offset != y.offset
          || x.size != y.size || x.repeats != y.repeats)
        return false;
    }
  return true;
}

// Whether record TYPE may have a non-trivial destructor: one is
// declared for it ("~T", user-written or implicit and used), or for a
// base or a data member's class (arrays of them too), at any depth.  A
// C struct has none.  A class only declared here may: unknown.
bool
may_have_destructor (Dwarf_Die *type, int depth)
{
  if (depth > 32 || dwarf_hasattr (type, DW_AT_declaration))
    return true;
  Dwarf_Die child;
  if (dwarf_child (type, &child) != 0)
    return false;
  do
    {
      int tag = dwarf_tag (&child);
      if (tag == DW_TAG_subprogram)
        {
          const char *n = die_name (&child);
          if (n && n[0] == '~')
            return true;
          continue;
        }
      if ((tag != DW_TAG_member && tag != DW_TAG_inheritance)
          || dwarf_hasattr (&child, DW_AT_declaration))
        continue;
      Dwarf_Die t, elem;
      uint64_t count;
      if (!member_type (&child, t))
        continue;
      if (dwarf_tag (&t) == DW_TAG_array_type && array_shape (&t, elem, count))
        t = elem;
      int ttag = dwarf_tag (&t);
      if (is_record_tag (ttag) && ttag != DW_TAG_union_type
          && may_have_destructor (&t, depth + 1))
        return true;
    }
  while (dwarf_siblingof (&child, &child) == 0);
  return false;
}

void
flatten (Dwarf_Die *type, const TypeIndex &index, TypeLayout &out)
{
  out.destructor = may_have_destructor (type, 0);
  out.fields.clear ();
  Flattener f (out.fields, index);
  if (dwarf_tag (type) == DW_TAG_union_type)
    {
      std::string members = union_members (type);
      LayoutField u;
      u.name = "{" + members + "}";
      u.kind = LayoutField::UNION;
      u.size = out.size;
      u.align = type_align (type);
      u.detail = "union of " + members;
      out.fields.push_back (u);
      return;
    }
  f.record (type, 0, "", {}, 0, !standard_library_name (out.name)
                                  || out.name.compare (0, 10, "std::pair<") == 0);
  std::stable_sort (out.fields.begin (), out.fields.end (),
                    [] (const LayoutField &a, const LayoutField &b) {
                      return a.offset < b.offset;
                    });
}

// Adds the types under SCOPE (a unit or a namespace, class or function)
// to INDEX with names qualified by PREFIX.
void
index_scope (Dwarf_Die *scope, const std::string &prefix, TypeIndex &index,
             int depth)
{
  Dwarf_Die child;
  if (depth > 64 || dwarf_child (scope, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);
      const char *n = die_name (&child);
      if (is_record_tag (tag) || tag == DW_TAG_typedef)
        {
          if (n && is_record_tag (tag) && standard_library_name (prefix + n))
            {
              index.library_records.insert (dwarf_dieoffset (&child));
              if ((prefix + n).compare (0, 10, "std::pair<") == 0)
                index.pair_records.insert (dwarf_dieoffset (&child));
            }
          if (n && !dwarf_hasattr (&child, DW_AT_declaration))
            {
              index.by_name[prefix + n].push_back (child);
              if (std::strchr (n, '<') && is_record_tag (tag))
                index.by_template[without_template_args (prefix + n)]
                  .emplace_back (prefix + n, child);
            }
          if (is_record_tag (tag) && n)
            index_scope (&child, prefix + n + "::", index, depth + 1);
        }
      else if ((tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type)
               && n)
        index.scalars.insert (prefix + n);
      else if (tag == DW_TAG_namespace)
        index_scope (&child, prefix + (n ? n : "{anonymous}") + "::", index,
                     depth + 1);
      else if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block)
        // A local type: GCC prints a C one by its bare name.
        index_scope (&child, prefix, index, depth + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

void
index_dwarf (Dwarf *dw, TypeIndex &index)
{
  Dwarf_CU *cu = nullptr;
  Dwarf_Die cudie, subdie;
  uint8_t unit_type;
  while (dwarf_get_units (dw, cu, &cu, nullptr, &unit_type, &cudie, &subdie)
         == 0)
    if (unit_type == DW_UT_compile || unit_type == DW_UT_partial)
      index_scope (&cudie, "", index, 0);
}

} // namespace

LayoutFinder::LayoutFinder (Symbolizer &sym) : sym_ (sym) {}
LayoutFinder::~LayoutFinder () = default;

bool
LayoutFinder::find (const std::string &module, const std::string &name,
                    uint64_t size, TypeLayout &out, Problem &problem)
{
  auto &index = indexes_[module];
  if (!index)
    {
      index = std::make_unique<TypeIndex> ();
      uint64_t bias;
      Dwarf *dw = sym_.module_dwarf (module, bias, index->problem);
      if (dw)
        {
          index_dwarf (dw, *index);
          // A dwz-compressed file keeps shared types in its alt file.
          if (Dwarf *alt = dwarf_getalt (dw))
            index_dwarf (alt, *index);
        }
    }
  problem = Problem ();
  if (!index->problem.empty ())
    {
      problem.message = index->problem;
      problem.module_unusable = true;
      return false;
    }
  // A pointer, an array or a scalar type has no fields to report.
  if (index->scalars.count (name) || name.empty () || name.back () == '*'
      || name.back () == ']' || name.back () == '&')
    {
      problem.message = format ("%s is not a struct, class or union",
                                name.c_str ());
      problem.not_a_record = true;
      return false;
    }
  auto it = index->by_name.find (name);
  const std::vector<Dwarf_Die> *candidates
    = it != index->by_name.end () ? &it->second : nullptr;
  // Copies of one type in many units agree; compare a few.  Any other
  // instantiation of the template may be meant: compare them all.
  size_t max_compared = kMaxCompared;
  std::vector<Dwarf_Die> extended;
  if (!candidates && name.find ('<') != std::string::npos)
    {
      // Defaulted template arguments: any instantiation of that size
      // will do when all have one layout (checked below).
      auto t = index->by_template.find (without_template_args (name));
      if (t != index->by_template.end ())
        {
          // Those whose arguments start with NAME's, if any.
          std::string head = name.substr (0, name.rfind ('>'));
          while (!head.empty () && head.back () == ' ')
            head.pop_back ();
          for (const auto &c : t->second)
            if (c.first.compare (0, head.size () + 2, head + ", ") == 0)
              extended.push_back (c.second);
          if (extended.empty ())
            for (const auto &c : t->second)
              extended.push_back (c.second);
          candidates = &extended;
        }
      max_compared = kMaxInstantiations;
    }
  size_t found = 0;
  // A typedef of something else than a record (mruby's mrb_atexit_func,
  // a function pointer) has debug info, and no fields.
  bool typedef_of_non_record = false, record_of_name = false;
  if (candidates)
    for (Dwarf_Die die : *candidates)
      {
        Dwarf_Die type = die;
        if (dwarf_tag (&die) == DW_TAG_typedef
            && (!member_type (&die, type) || !is_record_tag (dwarf_tag (&type))))
          {
            typedef_of_non_record = true;
            continue;
          }
        record_of_name = true;
        if (type_size (&type) != size)
          continue;
        TypeLayout l;
        l.name = name;
        l.size = size;
        flatten (&type, *index, l);
        if (found && same_layout (l, out))
          out.destructor |= l.destructor;
        if (found && !same_layout (l, out))
          {
            problem.message = format ("two different types %s of %llu "
                                      "bytes", name.c_str (),
                                      (unsigned long long) size);
            return false;
          }
        if (!found)
          out = std::move (l);
        if (++found == max_compared && max_compared == kMaxInstantiations)
          {
            problem.message = format ("too many instantiations like %s of "
                                      "%llu bytes", name.c_str (),
                                      (unsigned long long) size);
            return false;
          }
        if (found == max_compared)
          break;
      }
  if (!found && typedef_of_non_record && !record_of_name)
    {
      problem.message = format ("%s is not a struct, class or union",
                                name.c_str ());
      problem.not_a_record = true;
    }
  else if (!found)
    {
      /* The plugin names a lambda's closure or an unnamed struct as the
         front end prints it; the debug information has no such name.  */
      bool unnamed = name.compare (0, 1, "<") == 0
                     || name.find ("::<") != std::string::npos;
      problem.message
        = format (unnamed ? "type %s (%llu bytes) has no name in the debug info"
                          : "no debug info for type %s (%llu bytes)",
                  name.c_str (), (unsigned long long) size);
    }
  return found > 0;
}

} // namespace memprof
