// Mapping a context's 8-byte access-histogram slots onto its type's
// fields (type_layout.h), and what the counts suggest.  An access counts
// in the slot of its first byte, so a slot's count belongs to whichever
// fields lie in it: fields sharing a slot (two ints, bit-fields) form one
// row whose count is never split between them; a field spanning several
// slots gets all of them.
#ifndef MEMPROF_TOOLS_FIELD_MAP_H
#define MEMPROF_TOOLS_FIELD_MAP_H

#include "type_layout.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memprof {

// One row of a field report: one field, or the fields that share slots.
struct FieldRow
{
  std::string name;             // Fields sharing slots: "a, b".
  LayoutField::Kind kind = LayoutField::FIELD;  // Of the first member.
  bool shared = false;          // Several fields: the count is theirs.
  std::string detail;           // The single member's (union, bits).
  uint64_t offset = 0;          // Of the first member.
  // The bytes of one element the members cover; fields sharing slots,
  // from the first's start to the last's end.
  uint64_t size = 0;
  uint64_t accesses = 0;
  bool cold = false;            // Zero or under 1% of all accesses.
  // A standard library node's own field (a std::map node's
  // _Rb_tree_node_base::_M_parent): libstdc++'s compiled code, which
  // uses it too (rebalancing, iterating), counts no access.
  bool library_own = false;
  // False when the row lies past the histogram's end (the runtime keeps
  // the first 512 slots of a block): its accesses are unknown, not 0.
  bool counted = true;
  // Not counted, but its first bytes are: ACCESSES is what they had
  // (a buffer longer than the histogram's reach).
  bool partly = false;
  // Not counted: it starts past the end of the largest block (a struct
  // allocated shorter than its type, its tail left out).
  bool absent = false;
  // A union whose last IDLE_BYTES, from offset IDLE_FROM, were never
  // accessed while the rest was: its larger members are rare (gumbo's
  // text nodes never touch bytes 72-127 of the node's union), so a
  // smaller object would do for the common case.  0: none.
  uint64_t idle_from = 0, idle_bytes = 0;
  std::vector<size_t> members;  // Indexes of the layout's fields.
};

struct FieldReport
{
  std::vector<FieldRow> rows;   // By offset; padding rows included.
  uint64_t total = 0;           // All slots' accesses.
  uint64_t beyond = 0;          // In slots past the type (not folded).
  // new T[n]'s array cookie before the elements (array_cookie): its
  // bytes, and the accesses to it (new[] writes it, delete[] reads it).
  uint64_t cookie_bytes = 0;
  uint64_t cookie_accesses = 0;
  // Those bytes are instead an allocator's size header, kept before the
  // block it returns (the type's AllocatedType::offset).
  bool allocator_header = false;
  bool folded = false;          // Blocks are arrays of the type.
  uint64_t objects = 0;         // Objects of the type allocated.
  // One line, no trailing newline: what moving the cold fields out or
  // putting the hot ones first saves, in bytes of 64-byte cache lines
  // per object, objects laid out back to back (an array, or a heap of
  // equal blocks).
  std::string suggestion;
};

// Whether blocks of MIN_SIZE..MAX_SIZE bytes are arrays of TYPE_SIZE
// objects to fold onto the type (both multiples, some longer than one).
bool fold_blocks (uint64_t type_size, uint64_t min_size, uint64_t max_size);

// Bytes of new T[n]'s array cookie at the start of blocks of
// MIN_SIZE..MAX_SIZE bytes of LAYOUT, or 0: the Itanium C++ ABI keeps n
// in max (8, alignof (T)) bytes before the elements when T has a
// non-trivial destructor, and the plugin records T as the type.  Blocks
// that are not whole arrays of T, but are after such a cookie.
uint64_t array_cookie (const TypeLayout &layout, uint64_t min_size,
                       uint64_t max_size);

// The report of SLOTS (slot i: accesses whose first byte is in
// [8i, 8i+8) of the block, summed over blocks) on LAYOUT; FOLDED slots
// past the type wrap onto it; OBJECTS: how many objects of the type;
// COUNTED_BYTES: how far into the blocks SLOTS reach when the histogram
// was cut short (rows reaching further are not counted, those that
// start before partly); COOKIE: bytes
// of an array cookie before the first object (array_cookie).  False (and
// REPORT.suggestion says why) when the type is too large.
// BLOCK_BYTES: the largest block's size when the blocks are single
// objects (rows starting past it are absent), else UINT64_MAX.
bool map_fields (const TypeLayout &layout, const std::vector<uint64_t> &slots,
                 bool folded, uint64_t objects, FieldReport &report,
                 uint64_t counted_bytes = UINT64_MAX, uint64_t cookie = 0,
                 uint64_t block_bytes = UINT64_MAX);

// Sums B's rows into A's by name (A's rows of one type, --by-type).
void add_field_report (FieldReport &a, const FieldReport &b);
// Marks cold rows and writes the suggestion from the rows' counts.
void finish_field_report (const TypeLayout &layout, FieldReport &report);

// The report's rows as text lines, each starting with INDENT.
std::string field_report_text (const FieldReport &report,
                               const std::string &indent);
// The rows as a JSON array of {"name", "offset", "size", "accesses",
// "kind", "shared", "cold"}, an array cookie first as a row of kind
// "cookie".
std::string field_report_json (const FieldReport &report);

} // namespace memprof

#endif
