// The byte layout of a struct, class or union type, read from a module's
// DWARF with libdw and flattened into leaf fields: nested structs and
// base classes become dotted or qualified names (hdr.len, Base::id),
// arrays of structs are folded to one element (items[].key, repeated),
// unions and bit-fields stay whole leaves that say what they are, and the
// bytes no member covers are padding.  The field map (field_map.h) maps
// 8-byte access-histogram slots onto these leaves.
#ifndef MEMPROF_TOOLS_TYPE_LAYOUT_H
#define MEMPROF_TOOLS_TYPE_LAYOUT_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace memprof {

struct LayoutField
{
  // Stored in the indexed profile (indexed_format.h): never renumber.
  enum Kind : uint8_t
  {
    FIELD = 0,          // A scalar, pointer, enum or array of those.
    PADDING = 1,        // Bytes no member covers.
    UNION = 2,          // A whole union member: its members overlap.
    BITFIELD = 3        // SIZE covers the bytes its bits touch.
  };
  std::string name;     // Dotted path; padding: PARENT.(padding).
  Kind kind = FIELD;
  uint64_t offset = 0;  // From the type's start, first repetition.
  uint64_t size = 0;    // Bytes.
  uint64_t align = 1;   // Of the member's type (for regrouping).
  // Arrays of structs folded around this leaf, outermost first: the leaf
  // also lies at OFFSET + sum of i_k * stride_k for every i_k < count_k.
  std::vector<std::pair<uint64_t, uint64_t>> repeats;   // (stride, count)
  // Union: its members' names, "a | b"; bit-field: "bits 3..5" (of the
  // byte at OFFSET); otherwise empty.
  std::string detail;

  // Bytes this leaf covers in one object, all repetitions counted.
  uint64_t total_bytes () const
  {
    uint64_t n = size;
    for (const auto &r : repeats)
      n *= r.second;
    return n;
  }
  // Calls F (offset) for every repetition's start.
  template <typename F> void each_repetition (F f) const;
};

// KIND as the reports and JSON name it: field, padding, union, bitfield.
inline const char *
layout_kind_name (LayoutField::Kind kind)
{
  static const char *const names[] = { "field", "padding", "union",
                                       "bitfield" };
  return kind <= LayoutField::BITFIELD ? names[kind] : "?";
}

// A member of one of the C library's synchronisation or state types
// (pthread_mutex_t, pthread_cond_t, sem_t, jmp_buf, ...): the program
// hands it to library functions, which use it in code that counts no
// access, so no count says whether it is hot.  Marked in the leaf's
// detail (kept in the indexed profile with it), which starts so.
constexpr const char *kLibraryStateDetail = "C library state";

inline bool
library_state (const LayoutField &f)
{
  return f.detail.compare (0, std::char_traits<char>::length (
                                kLibraryStateDetail),
                           kLibraryStateDetail) == 0;
}

struct TypeLayout
{
  std::string name;     // As GCC prints it: "rec", "ns::Item<int>".
  uint64_t size = 0;
  // Whether the type may have a non-trivial destructor (declared for it,
  // a base or a member), so that new T[n] keeps the array cookie: never
  // for a C struct.  True when unknown (an indexed profile written
  // before the TYPE_DESTRUCTORS section).
  bool destructor = true;
  std::vector<LayoutField> fields;      // By offset; padding included.
};

// The layouts a profile carries, by (module, type name, type size): the
// module is the one whose type table named the type.
using LayoutKey = std::tuple<std::string, std::string, uint64_t>;
using LayoutTable = std::map<LayoutKey, TypeLayout>;

template <typename F>
void
LayoutField::each_repetition (F f) const
{
  std::vector<uint64_t> index (repeats.size (), 0);
  for (;;)
    {
      uint64_t off = offset;
      for (size_t k = 0; k < repeats.size (); k++)
        off += index[k] * repeats[k].first;
      f (off);
      size_t k = repeats.size ();
      while (k > 0 && ++index[k - 1] == repeats[k - 1].second)
        index[--k] = 0;
      if (k == 0)
        return;
    }
}

class Symbolizer;
struct TypeIndex;

// Layouts looked up by module, cached.  Modules are opened through the
// symbolizer's (--binary, separate debug files by build id and by
// .gnu_debuglink).  One thread at a time, with no symbolization running.
class LayoutFinder
{
public:
  explicit LayoutFinder (Symbolizer &sym);
  ~LayoutFinder ();

  // Why find failed: MESSAGE does not name the module.
  struct Problem
  {
    std::string message;
    bool module_unusable = false;       // No file or no debug info.
    bool not_a_record = false;          // A scalar, pointer or enum type.
  };

  // The layout of the type NAME of SIZE bytes defined in MODULE (a path
  // as the profile recorded it).  False with PROBLEM set when the module
  // or its debug info cannot be read, or NAME is no struct, class or
  // union, or it defines no such type, or two different ones.
  bool find (const std::string &module, const std::string &name,
             uint64_t size, TypeLayout &out, Problem &problem);

private:
  Symbolizer &sym_;
  std::map<std::string, std::unique_ptr<TypeIndex>> indexes_;
};

} // namespace memprof

#endif
