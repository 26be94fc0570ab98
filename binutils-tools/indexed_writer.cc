// Writer of indexed profiles.
#include "indexed_writer.h"

#include "byte_writer.h"
#include "demangle.h"
#include "layout_section.h"

#include "memprof/indexed_format.h"

#include <map>
#include <set>
#include <unordered_map>

namespace memprof {

namespace {

class StringTable
{
public:
  StringTable () { id (""); }
  uint64_t id (const std::string &s)
  {
    auto ins = ids_.emplace (s, w.size ());
    if (ins.second)
      {
        w.uleb (s.size ());
        w.raw (s.data (), s.size ());
      }
    return ins.first->second;
  }
  ByteWriter w;

private:
  std::unordered_map<std::string, uint64_t> ids_;
};

// Reversed prefix tree of file paths.
class FileTable
{
public:
  explicit FileTable (StringTable &strings) : strings_ (strings) {}
  uint64_t id (const std::string &path)
  {
    if (path.empty ())
      return 0;
    auto it = paths_.find (path);
    if (it != paths_.end ())
      return it->second;
    uint64_t parent = 0;
    size_t start = 0;
    for (;;)
      {
        size_t slash = path.find ('/', start);
        std::string name = path.substr (start, slash == std::string::npos
                                                 ? std::string::npos
                                                 : slash - start);
        uint64_t sid = strings_.id (name);
        auto ins = nodes_.emplace (std::make_pair (parent, sid),
                                   nodes_.size () + 1);
        if (ins.second)
          order_.emplace_back (sid, parent);
        parent = ins.first->second;
        if (slash == std::string::npos)
          break;
        start = slash + 1;
      }
    paths_.emplace (path, parent);
    return parent;
  }
  void write (ByteWriter &w) const
  {
    w.uleb (order_.size ());
    for (const auto &n : order_)
      {
        w.uleb (n.first);
        w.uleb (n.second);
      }
  }

private:
  StringTable &strings_;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> nodes_;
  std::vector<std::pair<uint64_t, uint64_t>> order_;  // (name, parent)
  std::unordered_map<std::string, uint64_t> paths_;
};

void
add_section (ByteWriter &table, uint32_t kind, uint64_t offset, uint64_t size)
{
  table.u32 (kind);
  table.u32 (0);
  table.u64 (offset);
  table.u64 (size);
}

} // namespace

std::vector<uint8_t>
write_indexed (const ContextTable &table)
{
  StringTable strings;
  FileTable files (strings);
  ByteWriter frames, stacks, records, schema, summary, histograms;
  uint64_t num_histograms = 0;
  std::vector<std::pair<uint64_t, uint64_t>> function_lines;
  std::vector<uint64_t> frame_offset (table.num_frames (), UINT64_MAX);

  auto frame_id = [&] (uint32_t id) {
    if (frame_offset[id] == UINT64_MAX)
      {
        const Frame &f = table.frame (id);
        frame_offset[id] = frames.size ();
        frames.uleb (f.function.empty () ? 0 : strings.id (f.function));
        frames.uleb (files.id (f.file));
        frames.uleb (f.line);
        frames.uleb (f.column);
        frames.uleb (f.discriminator);
        frames.uleb ((f.inlined ? 1 : 0) | (f.folded ? 2 : 0)
                     | (f.cut ? 4 : 0));
        frames.uleb (strings.id (f.module));
        frames.uleb (f.address);
        if (f.function_line)
          function_lines.emplace_back (frame_offset[id], f.function_line);
      }
    return frame_offset[id];
  };
  // Every context has a stack of its own (contexts are unique by their
  // frames' positions), so stacks are written as met, never looked up.
  auto stack_id = [&] (const Stack &s) {
    for (uint32_t f : s)
      frame_id (f);
    uint64_t off = stacks.size ();
    stacks.uleb (s.size ());
    for (uint32_t f : s)
      stacks.uleb (frame_offset[f]);
    return off;
  };

  schema.uleb (NUM_FIELDS);
  for (int i = 0; i < NUM_FIELDS; i++)
    schema.uleb (kFields[i].tag);

  // Records grouped by frame 0's function; canonical order sorts by it.
  std::vector<const Context *> order = table.canonical_order ();
  std::vector<std::pair<std::string, uint64_t>> groups;  // name, offset
  // (Outer function, offset of a group inlined into it.)
  std::vector<std::pair<std::string, uint64_t>> inlined_into;
  uint64_t alloc_count = 0, total_size = 0, accesses = 0;
  for (size_t i = 0; i < order.size ();)
    {
      const std::string &name = order[i]->stack.empty ()
                                  ? std::string ()
                                  : table.frame (order[i]->stack[0]).function;
      size_t j = i;
      while (j < order.size ()
             && (order[j]->stack.empty () ? std::string ()
                                          : table.frame (order[j]->stack[0])
                                              .function)
                  == name)
        j++;
      groups.emplace_back (name, records.size ());
      // The group is also found by the functions its frame 0 was inlined
      // into at a call of the allocator (a wrapper inlined into them),
      // unless it is the standard library's, whose groups a reader of
      // any one function reads anyway.
      if (!library_function (name))
        {
          std::set<std::string> outer;
          for (size_t k = i; k < j; k++)
            {
              const Stack &st = order[k]->stack;
              for (size_t f = 0; f + 1 < st.size ()
                                 && table.frame (st[f]).inlined; f++)
                {
                  const std::string &o = table.frame (st[f + 1]).function;
                  if (!o.empty () && o != name)
                    outer.insert (o);
                }
            }
          for (const std::string &o : outer)
            inlined_into.emplace_back (o, records.size ());
        }
      records.uleb (name.empty () ? 0 : strings.id (name));
      records.uleb (j - i);
      for (size_t k = i; k < j; k++)
        {
          const Context &c = *order[k];
          uint64_t sid = stack_id (c.stack);
          records.uleb (sid);
          if (!c.histogram.empty ())
            {
              histograms.uleb (sid);
              histograms.uleb (c.histogram.size ());
              for (uint64_t v : c.histogram)
                histograms.uleb (v);
              num_histograms++;
            }
          for (int f = 0; f < NUM_FIELDS; f++)
            records.uleb (c.fields[f]);
          alloc_count += c.fields[F_alloc_count];
          total_size += c.fields[F_total_size];
          accesses += c.fields[F_total_access_count];
        }
      i = j;
    }

  // Function hash table at most half full.  Each group's own entry
  // comes first, so that a reader that knows no others finds it first.
  std::vector<std::pair<std::string, uint64_t>> keys = groups;
  keys.insert (keys.end (), inlined_into.begin (), inlined_into.end ());
  uint64_t buckets = 1;
  while (buckets < 2 * keys.size ())
    buckets <<= 1;
  std::vector<std::pair<uint64_t, uint64_t>> slots (buckets,
                                                    { 0, UINT64_MAX });
  for (const auto &g : keys)
    {
      uint64_t h = fnv1a_64 (g.first);
      uint64_t b = h & (buckets - 1);
      while (slots[b].second != UINT64_MAX)
        b = (b + 1) & (buckets - 1);
      slots[b] = { h, g.second };
    }
  ByteWriter functions;
  functions.u64 (buckets);
  for (const auto &s : slots)
    {
      functions.u64 (s.first);
      functions.u64 (s.second);
    }

  std::vector<std::pair<uint64_t, uint64_t>> sum = {
    { MEMPROF_SUMMARY_PROFILES, table.num_profiles },
    { MEMPROF_SUMMARY_CONTEXTS, order.size () },
    { MEMPROF_SUMMARY_FUNCTIONS, groups.size () },
    { MEMPROF_SUMMARY_ALLOC_COUNT, alloc_count },
    { MEMPROF_SUMMARY_TOTAL_SIZE, total_size },
    { MEMPROF_SUMMARY_ACCESS_COUNT, accesses },
  };
  if (table.peak.known)
    {
      sum.push_back ({ MEMPROF_SUMMARY_PEAK_BYTES, table.peak.bytes });
      sum.push_back ({ MEMPROF_SUMMARY_PEAK_BLOCKS, table.peak.blocks });
      sum.push_back ({ MEMPROF_SUMMARY_PEAK_TIME, table.peak.time });
    }
  if (table.sample_interval)
    sum.push_back ({ MEMPROF_SUMMARY_SAMPLE_INTERVAL, table.sample_interval });
  if (table.sample_interval && table.site_calibrated)
    sum.push_back ({ MEMPROF_SUMMARY_SITE_CALIBRATED, 1 });
  if (table.unattributed_allocs || table.unattributed_bytes)
    {
      sum.push_back ({ MEMPROF_SUMMARY_UNATTRIBUTED_ALLOCS,
                       table.unattributed_allocs });
      sum.push_back ({ MEMPROF_SUMMARY_UNATTRIBUTED_BYTES,
                       table.unattributed_bytes });
    }
  if (table.histogram_mode ())
    sum.push_back ({ MEMPROF_SUMMARY_ACCESS_GRANULE, kHistogramSlotBytes });
  if (table.uninstrumented_profiles)
    sum.push_back ({ MEMPROF_SUMMARY_UNINSTRUMENTED_PROFILES,
                     table.uninstrumented_profiles });
  summary.uleb (sum.size ());
  for (const auto &p : sum)
    {
      summary.uleb (p.first);
      summary.uleb (p.second);
    }

  ByteWriter files_w;
  files.write (files_w);

  // Record ids are the table's: its types in order.
  ByteWriter types, prefixes, offsets;
  types.uleb (table.types ().size ());
  std::vector<uint64_t> prefix_ids;
  std::vector<std::pair<uint64_t, uint64_t>> offset_ids;
  for (const AllocatedType &t : table.types ())
    {
      types.uleb (strings.id (t.name));
      types.uleb (t.size);
      types.uleb (strings.id (t.module));
      uint64_t id = &t - table.types ().data () + 1;
      if (t.prefix)
        prefix_ids.push_back (id);
      if (t.offset)
        offset_ids.push_back ({ id, t.offset });
    }
  prefixes.uleb (prefix_ids.size ());
  for (uint64_t id : prefix_ids)
    prefixes.uleb (id);
  offsets.uleb (offset_ids.size ());
  for (const auto &o : offset_ids)
    {
      offsets.uleb (o.first);
      offsets.uleb (o.second);
    }

  ByteWriter programs;
  programs.uleb (table.programs.size ());
  for (const auto &p : table.programs)
    {
      programs.uleb (strings.id (p.first));
      programs.uleb (p.second);
    }

  ByteWriter unsymbolized;
  unsymbolized.uleb (table.unsymbolized.size ());
  for (const auto &m : table.unsymbolized)
    {
      unsymbolized.uleb (strings.id (m.first));
      unsymbolized.uleb (strings.id (m.second));
    }

  ByteWriter histogram_section;
  histogram_section.uleb (num_histograms);
  histogram_section.append (histograms);

  ByteWriter lines_w;
  lines_w.uleb (function_lines.size ());
  for (const auto &l : function_lines)
    {
      lines_w.uleb (l.first);
      lines_w.uleb (l.second);
    }

  ByteWriter layouts;
  write_layout_section (table.layouts, layouts);
  std::vector<std::pair<uint32_t, const ByteWriter *>> sections = {
    { MEMPROF_SECTION_SUMMARY, &summary },
    { MEMPROF_SECTION_STRINGS, &strings.w },
    { MEMPROF_SECTION_FILES, &files_w },
    { MEMPROF_SECTION_FRAMES, &frames },
    { MEMPROF_SECTION_STACKS, &stacks },
    { MEMPROF_SECTION_SCHEMA, &schema },
    { MEMPROF_SECTION_RECORDS, &records },
    { MEMPROF_SECTION_FUNCTIONS, &functions },
    { MEMPROF_SECTION_TYPES, &types },
    { MEMPROF_SECTION_FUNCTION_LINES, &lines_w },
  };
  if (table.histogram_mode ())
    sections.push_back ({ MEMPROF_SECTION_HISTOGRAMS, &histogram_section });
  if (!prefix_ids.empty ())
    sections.push_back ({ MEMPROF_SECTION_TYPE_PREFIXES, &prefixes });
  if (!offset_ids.empty ())
    sections.push_back ({ MEMPROF_SECTION_TYPE_OFFSETS, &offsets });
  if (!table.unsymbolized.empty ())
    sections.push_back ({ MEMPROF_SECTION_UNSYMBOLIZED, &unsymbolized });
  if (!table.programs.empty ())
    sections.push_back ({ MEMPROF_SECTION_PROGRAMS, &programs });
  ByteWriter destructors;
  write_destructor_section (table.layouts, destructors);
  if (!table.layouts.empty ())
    {
      sections.push_back ({ MEMPROF_SECTION_TYPE_LAYOUTS, &layouts });
      sections.push_back ({ MEMPROF_SECTION_TYPE_DESTRUCTORS, &destructors });
    }
  const size_t nsections = sections.size ();
  ByteWriter out;
  out.u64 (MEMPROF_INDEXED_MAGIC);
  out.u64 (MEMPROF_INDEXED_VERSION);
  out.u64 (MEMPROF_HASH_FNV1A_64);
  out.u64 (0);                              // total_size, patched below.
  out.u64 (sizeof (memprof_indexed_header));
  out.u64 (nsections);
  out.u64 (0);
  out.u64 (0);
  ByteWriter table_w;
  uint64_t pos = sizeof (memprof_indexed_header)
                 + nsections * sizeof (memprof_indexed_section);
  for (const auto &s : sections)
    {
      add_section (table_w, s.first, pos, s.second->size ());
      pos += (s.second->size () + 7) & ~uint64_t (7);
    }
  out.append (table_w);
  for (const auto &s : sections)
    {
      out.append (*s.second);
      out.align8 ();
    }
  out.put_u64_at (24, out.size ());
  return std::move (out.bytes);
}

} // namespace memprof
