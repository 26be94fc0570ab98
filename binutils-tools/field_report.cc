// The field report of memprof-dump --fields, and the layouts' lookup.
#include "field_report.h"
#include "text_report.h"

#include "diag.h"
#include "frame_names.h"
#include "short_names.h"
#include "type_layout.h"

#include <algorithm>
#include <map>
#include <set>

namespace memprof {

namespace {

// The key of C's type in TABLE.layouts, or false when C's type is
// unknown (or incomplete).
bool
context_layout_key (const ContextTable &table, const Context &c,
                    LayoutKey &key)
{
  const AllocatedType *t = table.context_type (c);
  if (!t || t->name.empty () || t->size == 0)
    return false;
  key = LayoutKey (t->module, t->name, t->size);
  return true;
}

std::string
type_title (const LayoutKey &key)
{
  return format ("%s, %llu bytes (from %s)",
                 display_name (std::get<1> (key)).c_str (),
                 (unsigned long long) std::get<2> (key),
                 std::get<0> (key).c_str ());
}

// REPORT, its suggestion saying why nothing was counted when every one
// of CONTEXTS was allocated inside a system library (fopen's FILE in
// libc.so.6): that library's own uses of the blocks are not
// instrumented.
FieldReport
with_library_note (const ContextTable &table,
                   const std::vector<const Context *> &contexts,
                   const FieldReport &report)
{
  FieldReport r = report;
  if (r.total != 0)
    return r;
  std::string library;
  for (const Context *c : contexts)
    {
      const std::string &module
        = c->stack.empty () ? "" : table.frame (c->stack[0]).module;
      if (!system_library (module) || (!library.empty () && module != library))
        return r;
      library = module;
    }
  r.suggestion = "none: allocated inside "
                 + library.substr (library.rfind ('/') + 1)
                 + ", whose code is not instrumented: no access was counted";
  return r;
}

} // namespace

void
resolve_layouts (ContextTable &table, Symbolizer &sym)
{
  if (!table.histogram_mode ())
    return;
  LayoutFinder finder (sym);
  std::set<LayoutKey> tried;
  std::set<std::string> unusable;       // Modules already warned about.
  for (const Context &c : table.contexts ())
    {
      LayoutKey key;
      if (!context_layout_key (table, c, key) || table.layouts.count (key)
          || !tried.insert (key).second
          || unusable.count (std::get<0> (key)))
        continue;
      TypeLayout layout;
      LayoutFinder::Problem problem;
      const std::string &module = std::get<0> (key);
      if (finder.find (module, std::get<1> (key), std::get<2> (key), layout,
                       problem))
        table.layouts.emplace (key, std::move (layout));
      else if (problem.module_unusable)
        {
          unusable.insert (module);
          report_warning (module, "no field layouts: " + problem.message);
        }
      else if (!problem.not_a_record)   // A long has no fields: no warning.
        report_warning (module, "no field layout: " + problem.message);
    }
}

bool
context_field_report (const ContextTable &table, const Context &c,
                      FieldReport &report, const TypeLayout **layout_out)
{
  LayoutKey key;
  if (!table.histogram_mode () || !context_layout_key (table, c, key))
    return false;
  auto it = table.layouts.find (key);
  if (it == table.layouts.end ())
    return false;
  const TypeLayout &layout = it->second;
  const FieldValues &v = c.fields;
  const AllocatedType *type = table.context_type (c);
  // A header of larger blocks (the plugin saw their size computed
  // otherwise than as arrays of it) is one object per block.
  bool header = type->prefix;
  // An allocator's size header before the type: its bytes are the
  // block's first, counted apart like new[]'s array cookie.
  uint64_t before = type->offset;
  if (before % kHistogramSlotBytes || before >= v[F_min_size])
    return false;       // Not on a slot boundary: no honest mapping.
  uint64_t cookie = before ? before
                    : header ? 0
                             : array_cookie (layout, v[F_min_size],
                                             v[F_max_size]);
  bool folded = header ? false
                : before ? fold_blocks (layout.size, v[F_min_size] - before,
                                        v[F_max_size] - before)
                : cookie ? v[F_max_size] - cookie > layout.size
                         : fold_blocks (layout.size, v[F_min_size],
                                        v[F_max_size]);
  // One object a block unless folded; past a cookie, whatever fits.
  uint64_t objects
    = !folded && (header || before) ? v[F_alloc_count]
    : cookie ? (v[F_total_size] - cookie * v[F_alloc_count]) / layout.size
    : folded ? v[F_total_size] / layout.size
             : v[F_alloc_count];
  // The runtime keeps a block's first slots only (raw_format.h).
  uint64_t reach = c.histogram.size () * kHistogramSlotBytes;
  if (!map_fields (layout, c.histogram, folded, objects, report,
                   !c.histogram.empty () && reach < v[F_max_size]
                     ? reach : UINT64_MAX, cookie,
                   folded || cookie || v[F_max_size] >= layout.size
                     ? UINT64_MAX : v[F_max_size]))
    return false;
  report.allocator_header = before != 0;
  if (layout_out)
    *layout_out = &layout;
  return true;
}

std::string
context_fields_json (const ContextTable &table, const Context &c)
{
  FieldReport report;
  if (!context_field_report (table, c, report))
    return "null";
  return field_report_json (report);
}

void
write_fields_report (FILE *out, const std::vector<std::string> &header,
                     const ContextTable &table,
                     const std::vector<const Context *> &records,
                     uint64_t top, bool by_type)
{
  for (const std::string &l : header)
    std::fprintf (out, "%s\n", l.c_str ());
  struct Entry
  {
    LayoutKey key;
    const TypeLayout *layout = nullptr;
    FieldReport report;
    std::vector<const Context *> contexts;
  };
  std::vector<Entry> entries;
  std::map<LayoutKey, size_t> by_key;
  size_t unknown = 0;
  for (const Context *c : records)
    {
      Entry e;
      if (!context_field_report (table, *c, e.report, &e.layout))
        {
          unknown++;
          continue;
        }
      context_layout_key (table, *c, e.key);
      e.contexts.push_back (c);
      if (by_type)
        {
          auto ins = by_key.emplace (e.key, entries.size ());
          if (!ins.second)
            {
              Entry &t = entries[ins.first->second];
              add_field_report (t.report, e.report);
              t.contexts.push_back (c);
              continue;
            }
        }
      entries.push_back (std::move (e));
    }
  if (by_type)
    {
      for (Entry &e : entries)
        finish_field_report (*e.layout, e.report);
      std::stable_sort (entries.begin (), entries.end (),
                        [] (const Entry &a, const Entry &b) {
                          return a.report.total > b.report.total;
                        });
    }
  size_t shown = top && top < entries.size () ? top : entries.size ();
  std::fprintf (out, "Fields of %s; showing %zu\n",
                (by_type ? counted (entries.size (), "type", "types")
                         : counted (entries.size (),
                                    "context with a known type layout",
                                    "contexts with a known type layout"))
                  .c_str (),
                shown);
  if (unknown)
    std::fprintf (out, "(%s of unknown type or layout not shown)\n",
                  counted (unknown, "context", "contexts").c_str ());
  for (size_t n = 0; n < shown; n++)
    {
      const Entry &e = entries[n];
      std::fprintf (out, "\n-------------------- %zu of %zu "
                         "--------------------\n",
                    n + 1, entries.size ());
      std::fprintf (out, "type:        %s\n", type_title (e.key).c_str ());
      uint64_t blocks = 0;
      for (const Context *c : e.contexts)
        blocks += c->fields[F_alloc_count];
      std::fprintf (out, "objects:     %s in %s%s%s\n",
                    grouped (e.report.objects).c_str (),
                    counted (blocks, "block", "blocks").c_str (),
                    e.report.folded ? " (arrays: slots folded per object)"
                                    : "",
                    by_type ? (" from " + counted (e.contexts.size (),
                                                   "context", "contexts"))
                                .c_str ()
                            : "");
      // The runtime keeps a histogram of a block's first slots only
      // (4 KiB): what lies further in is in the context's accesses, not
      // in any field's.
      uint64_t all = 0, largest = 0, held = 0;
      for (const Context *c : e.contexts)
        {
          all += c->fields[F_total_access_count];
          largest = std::max (largest, c->fields[F_max_size]);
          held = std::max<uint64_t> (held, c->histogram.size ()
                                             * kHistogramSlotBytes);
        }
      if (largest > held && all > e.report.total)
        std::fprintf (out, "accesses:    %s of the blocks' %s (a histogram "
                           "holds each block's first %s bytes)\n",
                      grouped (e.report.total).c_str (),
                      grouped (all).c_str (), grouped (held).c_str ());
      else
        std::fprintf (out, "accesses:    %s\n",
                      grouped (e.report.total).c_str ());
      std::fputs (field_report_text (with_library_note (table, e.contexts,
                                                        e.report), "")
                    .c_str (), out);
      if (!by_type)
        {
          const Context *c = e.contexts[0];
          for (size_t i = 0; i < c->stack.size (); i++)
            std::fprintf (out, "%s %s\n", i == 0 ? "at" : "by",
                          frame_text (table.frame (c->stack[i])).c_str ());
        }
    }
}

} // namespace memprof
