// Slots to fields, cold fields, and the cache-line arithmetic.
#include "field_map.h"

#include "demangle.h"
#include "diag.h"
#include "json_output.h"
#include "short_names.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace memprof {

namespace {

// Types larger than this get no field report (the byte map is per byte).
constexpr uint64_t kMaxTypeBytes = uint64_t (4) << 20;
constexpr uint64_t kSlot = 8, kLine = 64;

struct UnionFind
{
  std::vector<size_t> parent;
  explicit UnionFind (size_t n) : parent (n) { std::iota (parent.begin (), parent.end (), 0); }
  size_t find (size_t x)
  {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite (size_t a, size_t b) { parent[find (a)] = find (b); }
};

// Cache-line bytes per object that the byte ranges RANGES of each object
// touch, objects of SIZE bytes back to back from a line boundary: the
// lines touched over one period of the placement, per object.
double
line_bytes_per_object (uint64_t size,
                       const std::vector<std::pair<uint64_t, uint64_t>> &ranges)
{
  if (size == 0 || ranges.empty ())
    return 0;
  uint64_t period = kLine / std::gcd (size, kLine);
  std::unordered_set<uint64_t> lines;
  for (uint64_t i = 0; i < period; i++)
    for (const auto &r : ranges)
      for (uint64_t l = (i * size + r.first) / kLine;
           l <= (i * size + r.second - 1) / kLine; l++)
        lines.insert (l);
  return double (lines.size ()) * kLine / period;
}

std::string
bytes_text (double b)
{
  return b == uint64_t (b) ? format ("%llu", (unsigned long long) b)
                           : format ("%.1f", b);
}

// N bytes as the suggestions write them: "1 byte", "24 bytes".
std::string
byte_count (uint64_t n)
{
  return format ("%llu %s", (unsigned long long) n, n == 1 ? "byte" : "bytes");
}

// NAMES joined, the first few only.
std::string
name_list (const std::vector<std::string> &names)
{
  std::string s;
  for (size_t i = 0; i < names.size () && i < 4; i++)
    s += (i ? ", " : "") + names[i];
  if (names.size () > 4)
    s += format (" and %zu more", names.size () - 4);
  return s;
}

// Whether a field path is a C++ class's vtable pointer (GCC names it
// "_vptr.CLASS"; no identifier holds a dot): the ABI puts it there, so
// it is never cold and never to be moved, however seldom it is read.
bool
vtable_pointer (const std::string &path)
{
  for (size_t at = path.find ("_vptr."); at != std::string::npos;
       at = path.find ("_vptr.", at + 1))
    if (at == 0 || path[at - 1] == ':' || path[at - 1] == '.')
      return true;
  return false;
}

// The base class a field path lies in ("Base::x" -> "Base",
// "Mid::Base::x" -> "Base"), or "" for the type's own members.  Bases
// name the path's first components (type_layout.cc); after a member
// ("m.x") the path is that member's.
std::string
declaring_base (const std::string &path)
{
  std::string head = path.substr (0, path.find ('.'));
  size_t last = head.rfind ("::");
  if (last == std::string::npos)
    return "";
  size_t prev = last ? head.rfind ("::", last - 1) : std::string::npos;
  size_t from = prev == std::string::npos ? 0 : prev + 2;
  return head.substr (from, last - from);
}

} // namespace

bool
fold_blocks (uint64_t type_size, uint64_t min_size, uint64_t max_size)
{
  return type_size && max_size > type_size && min_size % type_size == 0
         && max_size % type_size == 0;
}

uint64_t
array_cookie (const TypeLayout &layout, uint64_t min_size, uint64_t max_size)
{
  uint64_t n = layout.size;
  if (!n || !layout.destructor || (min_size % n == 0 && max_size % n == 0))
    return 0;
  uint64_t align = 8;
  for (const LayoutField &f : layout.fields)
    align = std::max (align, f.align);
  if (min_size <= align || (min_size - align) % n || (max_size - align) % n)
    return 0;
  return align;
}

bool
map_fields (const TypeLayout &layout, const std::vector<uint64_t> &slots,
            bool folded, uint64_t objects, FieldReport &report,
            uint64_t counted_bytes, uint64_t cookie, uint64_t block_bytes)
{
  report = FieldReport ();
  report.folded = folded;
  report.objects = objects;
  report.cookie_bytes = cookie;
  const uint64_t n = layout.size;
  if (n == 0 || n > kMaxTypeBytes)
    {
      report.suggestion = format ("no field report: %s is %llu bytes",
                                  layout.name.c_str (),
                                  (unsigned long long) n);
      return false;
    }
  const std::vector<LayoutField> &leaves = layout.fields;
  // Which leaf holds each byte; leaves sharing a byte (bit-fields) unite.
  std::vector<int32_t> owner (n, -1), pad_owner (n, -1);
  UnionFind groups (leaves.size ());
  for (size_t i = 0; i < leaves.size (); i++)
    {
      bool pad = leaves[i].kind == LayoutField::PADDING;
      leaves[i].each_repetition ([&] (uint64_t off) {
        for (uint64_t b = off; b < off + leaves[i].size && b < n; b++)
          {
            int32_t &o = pad ? pad_owner[b] : owner[b];
            if (o < 0)
              o = int32_t (i);
            else if (!pad)
              groups.unite (o, i);
          }
      });
    }
  // The slots of one period of the block: the type's own, or, folded,
  // until slot and element boundaries meet again.
  uint64_t period_bytes = folded ? n / std::gcd (n, kSlot) * kSlot
                                 : (n + kSlot - 1) / kSlot * kSlot;
  uint64_t period = period_bytes / kSlot;
  std::vector<int32_t> slot_leaf (period, -1), slot_pad (period, -1);
  for (uint64_t s = 0; s < period; s++)
    for (uint64_t b = s * kSlot; b < (s + 1) * kSlot; b++)
      {
        uint64_t e = folded ? b % n : b;
        if (e >= n)
          break;
        if (owner[e] >= 0)
          {
            if (slot_leaf[s] < 0)
              slot_leaf[s] = owner[e];
            else
              groups.unite (slot_leaf[s], owner[e]);
          }
        else if (pad_owner[e] >= 0 && slot_pad[s] < 0)
          slot_pad[s] = pad_owner[e];
      }
  std::vector<uint64_t> count (leaves.size (), 0);
  std::vector<uint64_t> per_slot (period, 0);   // Of one period.
  const uint64_t cookie_slots = cookie / kSlot;
  for (uint64_t i = 0; i < slots.size (); i++)
    {
      uint64_t c = slots[i];
      report.total += c;
      if (i < cookie_slots)
        {
          report.cookie_accesses += c;
          continue;
        }
      uint64_t e = i - cookie_slots;   // Slot from the first object.
      uint64_t s = folded ? e % period : e;
      if (s < period)
        per_slot[s] += c;
      if (s >= period)
        report.beyond += c;
      else if (slot_leaf[s] >= 0)
        count[groups.find (slot_leaf[s])] += c;
      else if (slot_pad[s] >= 0)
        count[slot_pad[s]] += c;
      else
        report.beyond += c;
    }
  std::vector<int64_t> row_of (leaves.size (), -1);
  for (size_t i = 0; i < leaves.size (); i++)
    {
      const LayoutField &f = leaves[i];
      size_t root = f.kind == LayoutField::PADDING ? i : groups.find (i);
      if (row_of[root] >= 0)
        {
          FieldRow &r = report.rows[row_of[root]];
          r.name += ", " + f.name;
          r.shared = true;
          r.detail.clear ();
          r.members.push_back (i);
          continue;
        }
      row_of[root] = int64_t (report.rows.size ());
      FieldRow r;
      r.name = f.name;
      r.kind = f.kind;
      r.detail = f.detail;
      r.offset = f.offset;
      r.size = f.size;
      r.accesses = count[root];
      r.members.push_back (i);
      report.rows.push_back (std::move (r));
    }
  // A row's size: the bytes of one element its members cover (bit-fields
  // sharing a byte count it once).
  for (FieldRow &r : report.rows)
    {
      std::vector<std::pair<uint64_t, uint64_t>> spans;
      for (size_t m : r.members)
        spans.emplace_back (leaves[m].offset, leaves[m].offset + leaves[m].size);
      std::sort (spans.begin (), spans.end ());
      uint64_t end = 0;
      r.size = 0;
      for (const auto &sp : spans)
        {
          uint64_t from = std::max (sp.first, end);
          if (sp.second > from)
            r.size += sp.second - from;
          end = std::max (end, sp.second);
        }
      // Counted when all its bytes lie within the histogram's reach: a
      // field running past it (a 64 KiB buffer, or a field sharing its
      // slot with one past it) has a count that is not all of its own.
      r.counted = true;
      for (size_t m : r.members)
        leaves[m].each_repetition ([&] (uint64_t off) {
          if (cookie + off + leaves[m].size > counted_bytes)
            r.counted = false;
        });
      r.partly = !r.counted && cookie + r.offset < counted_bytes;
      r.absent = cookie + r.offset >= block_bytes;
      if (r.absent)
        r.counted = r.partly = false;
    }
  // A union's tail never accessed: the slots wholly inside it, from its
  // end back, with no count, when some before them have one.  (One
  // object per block: folded, a slot's bytes are several objects'.)
  if (!folded)
    for (FieldRow &r : report.rows)
      {
        if (r.kind != LayoutField::UNION || r.shared || !r.counted
            || !r.accesses || library_state (layout.fields[r.members[0]]))
          continue;
        uint64_t first = (r.offset + kSlot - 1) / kSlot;
        uint64_t end = std::min<uint64_t> ((r.offset + r.size) / kSlot, period);
        uint64_t s = end;
        while (s > first && per_slot[s - 1] == 0)
          s--;
        if (s < end && s > first)
          {
            r.idle_from = s * kSlot;
            r.idle_bytes = r.offset + r.size - r.idle_from;
          }
      }
  // Fields sharing slots are one row from the first's start to the
  // last's end, the padding between them included: as the sum of their
  // sizes the row read "96 5 a, b" above "97 3 (padding)", both at once.
  std::vector<std::pair<uint64_t, uint64_t>> shared_spans;
  for (FieldRow &r : report.rows)
    if (r.shared)
      {
        uint64_t end = 0;
        for (size_t m : r.members)
          {
            end = std::max (end, leaves[m].offset + leaves[m].size);
            r.offset = std::min (r.offset, leaves[m].offset);
          }
        r.size = end - r.offset;
        shared_spans.emplace_back (r.offset, end);
      }
  report.rows.erase (
    std::remove_if (report.rows.begin (), report.rows.end (),
                    [&] (const FieldRow &p) {
                      if (p.kind != LayoutField::PADDING)
                        return false;
                      for (const auto &sp : shared_spans)
                        if (sp.first <= p.offset
                            && p.offset + p.size <= sp.second)
                          return true;
                      return false;
                    }),
    report.rows.end ());
  finish_field_report (layout, report);
  return true;
}

void
add_field_report (FieldReport &a, const FieldReport &b)
{
  for (const FieldRow &rb : b.rows)
    {
      auto it = std::find_if (a.rows.begin (), a.rows.end (),
                              [&] (const FieldRow &ra) {
                                return ra.name == rb.name;
                              });
      if (it == a.rows.end ())
        a.rows.push_back (rb);
      else
        {
          it->accesses += rb.accesses;
          // Never accessed in either: the tail both left alone.
          uint64_t end = it->idle_from + it->idle_bytes;
          if (!it->idle_bytes || !rb.idle_bytes
              || rb.idle_from + rb.idle_bytes != end)
            it->idle_from = it->idle_bytes = 0;
          else
            {
              it->idle_from = std::max (it->idle_from, rb.idle_from);
              it->idle_bytes = end - it->idle_from;
            }
          // Present in some context's blocks: counted as that one says.
          if (it->absent && !rb.absent)
            {
              it->absent = false;
              it->counted = rb.counted;
              it->partly = rb.partly;
            }
        }
    }
  a.total += b.total;
  a.beyond += b.beyond;
  a.cookie_bytes = std::max (a.cookie_bytes, b.cookie_bytes);
  a.cookie_accesses += b.cookie_accesses;
  a.allocator_header = a.allocator_header || b.allocator_header;
  a.objects += b.objects;
  a.folded = a.folded || b.folded;
}

// Whether a field path lies in a type of the program's that a standard
// library type holds: a field of the element in a node's or a
// make_shared block's _M_storage (expanded into the element's own
// fields by type_layout), or, when the element is a std::pair (PAIR: a
// map's node), a field of its first or second member's type.  The
// program's instrumented code counts those, and their layout is the
// program's to change; a pair's own members are not.
static bool
element_field (const std::string &path, bool pair)
{
  size_t at = path.find ("_M_storage.");
  if (at == std::string::npos
      || (at != 0 && path[at - 1] != '.' && path[at - 1] != ':'))
    return false;
  std::string rest = path.substr (at + 11);
  if (!pair)
    return true;
  return rest.compare (0, 6, "first.") == 0
         || rest.compare (0, 7, "second.") == 0;
}

void
finish_field_report (const TypeLayout &layout, FieldReport &report)
{
  // A type of the C++ standard library's implementation (a tree node, a
  // hash node): its out-of-line code in libstdc++.so is not
  // instrumented, so the fields only that code touches (a tree node's
  // colour and parent) would look cold, and its layout is not the
  // program's to change.  Only the fields of the element it holds can
  // be cold (element_field), and the suggestion is about the element's
  // type.
  bool library = standard_library_name (layout.name);
  bool pair = layout.name.find ("<std::pair<") != std::string::npos;
  bool element_rows = false;
  if (library)
    for (const FieldRow &r : report.rows)
      element_rows |= r.kind != LayoutField::PADDING
                      && element_field (layout.fields[r.members[0]].name,
                                        pair);
  if (library && !element_rows)
    {
      for (FieldRow &r : report.rows)
        r.cold = false;
      report.suggestion = "none: " + layout.name + " is the C++ standard "
                          "library's; its compiled code (libstdc++.so) is "
                          "not instrumented, so the fields only it touches "
                          "are not counted";
      return;
    }
  std::vector<std::string> hot_names, cold_names;
  std::vector<const LayoutField *> hot;
  std::vector<std::pair<uint64_t, uint64_t>> hot_units;  // (align, bytes)
  uint64_t cold_bytes = 0;
  // The cold fields by the class that declares them: the type itself
  // (owner "") or one of its bases, whose layout is changed there.
  struct ColdGroup
  {
    std::string owner;
    std::vector<std::string> names;
    uint64_t bytes;
  };
  std::vector<ColdGroup> cold_by_owner;
  size_t uncounted = 0, absent = 0;
  // Cold is measured against the accesses to the type's own bytes: the
  // bytes past a header (a string's, mujs's and duktape's payloads) took
  // 95% of duk_hstring's accesses, and header fields read a few times
  // per object read as cold beside them.
  uint64_t own = report.total - report.beyond - report.cookie_accesses;
  for (FieldRow &r : report.rows)
    {
      if (r.kind == LayoutField::PADDING || !r.counted)
        {
          uncounted += !r.counted && !r.absent
                       && r.kind != LayoutField::PADDING;
          absent += r.absent && r.kind != LayoutField::PADDING;
          r.cold = false;
          continue;
        }
      const LayoutField &first = layout.fields[r.members[0]];
      r.library_own = library && !element_field (first.name, pair);
      r.cold = !vtable_pointer (first.name) && !library_state (first)
               && (!library || element_field (first.name, pair))
               && (r.accesses == 0 || r.accesses * 100 < own);
      (r.cold ? cold_names : hot_names).push_back (r.name);
      if (r.cold)
        {
          uint64_t bytes = r.size * (first.size ? first.total_bytes ()
                                                    / first.size
                                                : 1);
          cold_bytes += bytes;
          std::string owner = declaring_base (first.name);
          auto it = std::find_if (cold_by_owner.begin (), cold_by_owner.end (),
                                  [&] (const ColdGroup &g) {
                                    return g.owner == owner;
                                  });
          if (it == cold_by_owner.end ())
            it = cold_by_owner.insert (cold_by_owner.end (), { owner, {}, 0 });
          it->names.push_back (r.name);
          it->bytes += bytes;
        }
      else
        {
          uint64_t align = 1;
          for (size_t m : r.members)
            {
              hot.push_back (&layout.fields[m]);
              align = std::max (align, layout.fields[m].align);
            }
          hot_units.emplace_back (align, r.size * (first.size
                                                   ? first.total_bytes ()
                                                       / first.size
                                                   : 1));
        }
    }
  if (report.total == 0)
    {
      // Nothing counted says nothing of any one field: none is cold.
      for (FieldRow &r : report.rows)
        r.cold = false;
      report.suggestion = "no accesses counted in " + layout.name;
      return;
    }
  if (absent)
    {
      // The blocks are shorter than the type: its layout is not theirs
      // to the end, and no arithmetic on it holds.
      report.suggestion = format ("none: %zu fields of %s lie past the end "
                                  "of its blocks (allocated shorter than "
                                  "the type)", absent, layout.name.c_str ());
      if (!cold_names.empty ())
        report.suggestion += "; cold among the others: "
                             + name_list (cold_names);
      return;
    }
  if (uncounted)
    {
      // What the uncounted fields do is unknown: no arithmetic on it.
      report.suggestion = format ("none: %zu fields of %s lie past the "
                                  "histogram's end, their accesses unknown",
                                  uncounted, layout.name.c_str ());
      if (!cold_names.empty ())
        report.suggestion += "; cold among the others: "
                             + name_list (cold_names);
      return;
    }
  if (hot.empty () && report.beyond)
    {
      // Every access past the type (a header before a string's bytes,
      // mujs's js_String with its old-style char p[1]): no layout of the
      // type's own fields saves anything.
      report.suggestion = format ("none: no field of %s is hot; %.1f%% of "
                                  "the accesses are past its end",
                                  layout.name.c_str (),
                                  100.0 * report.beyond / report.total);
      return;
    }
  if (cold_names.empty ())
    {
      // The share column counts all the block's accesses; say which
      // base the 1% has when they differ (gawk's block_item: 0.5% in the
      // column, its bytes past the type's end 99.5%).
      std::string base = own == report.total
                           ? "of the accesses"
                           : "of the accesses to its own bytes";
      report.suggestion = library ? "no cold fields: every field of the "
                                    "element that " + layout.name + " holds "
                                    "has 1% " + base + " or more"
                                  : "no cold fields: every field of "
                                    + layout.name + " has 1% " + base
                                    + " or more";
      return;
    }
  // The hot fields' bytes now, and packed together (largest alignment
  // first, so no padding between them beyond the fields' own).
  std::vector<std::pair<uint64_t, uint64_t>> now;
  for (const LayoutField *f : hot)
    f->each_repetition ([&] (uint64_t off) {
      now.emplace_back (off, off + f->size);
    });
  std::stable_sort (hot_units.begin (), hot_units.end (),
                    [] (const std::pair<uint64_t, uint64_t> &a,
                        const std::pair<uint64_t, uint64_t> &b) {
                      return a.first > b.first;
                    });
  uint64_t packed = 0, max_align = 1;
  for (const auto &u : hot_units)
    {
      uint64_t a = std::max<uint64_t> (u.first, 1);
      max_align = std::max (max_align, a);
      packed = (packed + a - 1) / a * a + u.second;
    }
  packed = (packed + max_align - 1) / max_align * max_align;
  std::vector<std::pair<uint64_t, uint64_t>> front;
  if (packed)
    front.emplace_back (0, packed);
  double before = line_bytes_per_object (layout.size, now);
  double reorder = line_bytes_per_object (layout.size, front);
  double split = line_bytes_per_object (packed, front);
  std::string per = format (" bytes of cache lines per object instead of %s",
                            bytes_text (before).c_str ());
  auto saved = [&] (double after) {
    double d = before - after;
    std::string s = format ("%s saved per object", bytes_text (d).c_str ());
    if (report.objects > 1)
      s += format (", %s over its %llu objects",
                   bytes_text (d * report.objects).c_str (),
                   (unsigned long long) report.objects);
    return s;
  };
  std::string cold = name_list (cold_names) + ": " + byte_count (cold_bytes);
  if (split >= before)
    {
      report.suggestion = format ("no change saves cache lines: the hot "
                                  "fields take %s bytes of cache lines per "
                                  "object, the cold fields (%s) none",
                                  bytes_text (before).c_str (), cold.c_str ());
    }
  else if (library)
    // The node's own fields stay where the library puts them: only the
    // element's cold fields can go (into a structure of their own that
    // the element points to).
    report.suggestion = "move the cold fields (" + cold + ") out of the "
                        "program's type that " + layout.name + " holds: "
                        "each would take "
                        + bytes_text (split) + per + " (" + saved (split)
                        + ")";
  else if (reorder <= split)
    report.suggestion = "put the hot fields (" + name_list (hot_names)
                        + ") together: " + bytes_text (reorder) + per
                        + " (" + saved (reorder) + ")";
  else
    {
      // Own fields first, then each base's: a base's field moves out of
      // the base (and so out of every class derived from it).
      std::stable_sort (cold_by_owner.begin (), cold_by_owner.end (),
                        [] (const ColdGroup &a, const ColdGroup &b) {
                          return a.owner.empty () && !b.owner.empty ();
                        });
      std::string where;
      for (size_t i = 0; i < cold_by_owner.size (); i++)
        {
          const ColdGroup &g = cold_by_owner[i];
          where += i == 0 ? "" : i + 1 == cold_by_owner.size () ? " and " : ", ";
          where += "(" + name_list (g.names) + ": " + byte_count (g.bytes)
                   + ") out of ";
          where += g.owner.empty () ? layout.name
                                    : (i ? "its base class " : layout.name
                                                               + "'s base class ")
                                        + g.owner;
        }
      bool only_own = cold_by_owner.size () == 1
                      && cold_by_owner[0].owner.empty ();
      report.suggestion = "move the cold fields " + where + ": "
                          + (only_own ? "its" : layout.name + "'s")
                          + " hot fields would take " + bytes_text (split)
                          + per + " (" + saved (split) + ")";
    }
}

std::string
field_report_text (const FieldReport &report, const std::string &indent)
{
  std::string s = indent + "  offset    size      accesses   share  field\n";
  if (report.cookie_bytes)
    s += indent + format ("%8s %7llu %13llu %6.1f%%  %s\n", "-",
                          (unsigned long long) report.cookie_bytes,
                          (unsigned long long) report.cookie_accesses,
                          report.total ? 100.0 * report.cookie_accesses
                                           / report.total : 0.0,
                          report.allocator_header
                            ? "(allocator header: kept by the allocation "
                              "wrapper before the block it returns)"
                            : "(array cookie: new[]'s element count, "
                              "before the first object)");
  for (const FieldRow &r : report.rows)
    {
      double share = report.total ? 100.0 * r.accesses / report.total : 0;
      std::string note;
      if (r.shared)
        note = "  [share slots: not split]";
      else if (!r.detail.empty ())
        note = "  [" + r.detail
               + (r.idle_bytes
                    ? format ("; bytes %llu-%llu never accessed",
                              (unsigned long long) r.idle_from,
                              (unsigned long long) (r.idle_from
                                                    + r.idle_bytes - 1))
                    : std::string ())
               + "]";
      if (r.library_own)
        note += "  [the library's: its accesses in libstdc++.so are "
                "not counted]";
      if (r.cold)
        note += "  [cold]";
      // A row whose count is not all of its own: its accesses where its
      // first bytes were counted (partly), else "-", and why.
      if (!r.counted)
        {
          const char *why = r.absent ? "past the blocks' end: not allocated"
                            : r.partly ? "runs past the histogram: partly counted"
                                       : "past the histogram: not counted";
          std::string accesses = r.partly ? std::to_string (r.accesses) : "-";
          s += indent + format ("%8llu %7llu %13s %7s  %s  [%s]\n",
                                (unsigned long long) r.offset,
                                (unsigned long long) r.size, accesses.c_str (),
                                "-", r.name.c_str (), why);
          continue;
        }
      // A cold row just under the 1% line would read "1.0%" beside a
      // hot one at 1.0%: two decimals tell them apart.
      std::string share_text = r.cold && share >= 0.95
                                 ? format ("%6.2f%%", share)
                                 : format ("%6.1f%%", share);
      s += indent + format ("%8llu %7llu %13llu %s  %s%s\n",
                            (unsigned long long) r.offset,
                            (unsigned long long) r.size,
                            (unsigned long long) r.accesses,
                            share_text.c_str (), r.name.c_str (),
                            note.c_str ());
    }
  if (report.beyond)
    s += indent + format ("%29llu %6.1f%%  (past the type's end)\n",
                          (unsigned long long) report.beyond,
                          100.0 * report.beyond / report.total);
  return s + indent + "suggestion: " + display_name (report.suggestion) + "\n";
}

std::string
field_report_json (const FieldReport &report)
{
  std::string s = "[";
  if (report.cookie_bytes)
    s += format ("{\"name\": \"%s\", \"offset\": 0, "
                 "\"size\": %llu, \"accesses\": %llu, \"kind\": \"%s\", "
                 "\"shared\": false, \"cold\": false}",
                 report.allocator_header ? "(allocator header)"
                                         : "(array cookie)",
                 (unsigned long long) report.cookie_bytes,
                 (unsigned long long) report.cookie_accesses,
                 report.allocator_header ? "allocator_header" : "cookie");
  for (const FieldRow &r : report.rows)
    s += format ("%s{\"name\": %s, \"offset\": %llu, \"size\": %llu, "
                 "\"accesses\": %s, \"kind\": \"%s\", \"shared\": %s, "
                 "\"cold\": %s%s}",
                 s.size () > 1 ? ", " : "", json_string (r.name).c_str (),
                 (unsigned long long) r.offset, (unsigned long long) r.size,
                 r.counted ? std::to_string (r.accesses).c_str () : "null",
                 layout_kind_name (r.kind), r.shared ? "true" : "false",
                 r.cold ? "true" : "false",
                 r.idle_bytes
                   ? format (", \"never_accessed\": {\"offset\": %llu, "
                             "\"size\": %llu}",
                             (unsigned long long) r.idle_from,
                             (unsigned long long) r.idle_bytes).c_str ()
                   : "");
  return s + "]";
}

} // namespace memprof
