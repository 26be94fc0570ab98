// Reader of indexed profiles.
#include "indexed_reader.h"

#include "byte_cursor.h"
#include "byte_writer.h"
#include "diag.h"
#include "demangle.h"
#include "function_filter.h"
#include "layout_section.h"

#include "memprof/indexed_format.h"

#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace memprof {

bool
looks_like_indexed (const uint8_t *data, size_t size)
{
  ByteCursor c (data, size);
  return size >= 8 && c.u64 ("magic") == MEMPROF_INDEXED_MAGIC;
}

namespace {

struct Span
{
  const uint8_t *data = nullptr;
  size_t size = 0;
  bool present = false;
};

const char *
section_name (uint32_t kind)
{
  switch (kind)
    {
    case MEMPROF_SECTION_SUMMARY: return "summary section";
    case MEMPROF_SECTION_STRINGS: return "string table";
    case MEMPROF_SECTION_FILES: return "file path table";
    case MEMPROF_SECTION_FRAMES: return "frame table";
    case MEMPROF_SECTION_STACKS: return "stack table";
    case MEMPROF_SECTION_SCHEMA: return "schema section";
    case MEMPROF_SECTION_RECORDS: return "record section";
    case MEMPROF_SECTION_FUNCTIONS: return "function hash table";
    case MEMPROF_SECTION_HISTOGRAMS: return "histogram section";
    case MEMPROF_SECTION_TYPES: return "type table";
    case MEMPROF_SECTION_FUNCTION_LINES: return "function line table";
    case MEMPROF_SECTION_TYPE_LAYOUTS: return "type layout section";
    case MEMPROF_SECTION_TYPE_DESTRUCTORS: return "type destructor section";
    case MEMPROF_SECTION_TYPE_PREFIXES: return "type prefix section";
    case MEMPROF_SECTION_UNSYMBOLIZED: return "unsymbolized module section";
    case MEMPROF_SECTION_PROGRAMS: return "program section";
    case MEMPROF_SECTION_TYPE_OFFSETS: return "type offset section";
    default: return "section";
    }
}

class Reader
{
public:
  Reader (const uint8_t *data, size_t size, ContextTable &table)
    : table_ (table)
  {
    parse_header (data, size);
  }

  IndexedInfo info;

  void read_all ()
  {
    prepare ();
    ByteCursor c (sec (MEMPROF_SECTION_RECORDS).data,
                  sec (MEMPROF_SECTION_RECORDS).size);
    while (!c.at_end ())
      read_group (c);
  }

  void read_function (const std::string &name,
                      const std::vector<std::string> &allocators)
  {
    prepare ();
    FunctionFilter only (name, allocators);
    const Span &recs = sec (MEMPROF_SECTION_RECORDS);
    const Span &fn = sections_[MEMPROF_SECTION_FUNCTIONS];
    // The allocators' groups hold NAME's records: the index, keyed by
    // frame 0, cannot find them.
    if (!fn.present || only.has_allocators ())
      {
        // No index: scan the groups.
        ByteCursor c (recs.data, recs.size);
        while (!c.at_end ())
          read_group (c, &only);
        return;
      }
    // Every group NAME keys: its own, and those of the functions inlined
    // into it at a call of the allocator (indexed_format.h).
    uint64_t buckets = check_function_table ();
    uint64_t want = fnv1a_64 (name);
    uint64_t b = want & (buckets - 1);
    std::unordered_set<uint64_t> read;
    bool found = false;
    for (uint64_t probes = 0; probes < buckets; probes++)
      {
        ByteCursor e (fn.data, fn.size, 8 + 16 * ((b + probes) & (buckets - 1)));
        uint64_t hash = e.u64 ("function hash bucket");
        uint64_t off = e.u64 ("function hash bucket");
        if (off == UINT64_MAX)
          break;
        if (hash != want || !read.insert (off).second)
          continue;
        ByteCursor c (recs.data, recs.size);
        c.seek (off, "function hash table: group offset");
        found |= read_group (c, &only, Select::MATCH);
      }
    if (found)
      {
        read_library_groups (only, buckets, read);
        return;
      }
    // Not a linkage name in the table: a demangled name, matched against
    // every group's (the table is keyed by linkage names).
    ByteCursor c (recs.data, recs.size);
    while (!c.at_end ())
      read_group (c, &only);
  }

private:
  ContextTable &table_;
  std::unordered_map<uint32_t, Span> sections_;
  std::vector<int> schema_;                 // Field index per value, or -1.
  std::vector<uint64_t> type_ids_;          // data_type_id -> the table's.
  std::vector<std::string> file_paths_;     // By file id (0 = none).
  std::unordered_map<uint64_t, std::string> strings_;
  std::unordered_map<uint64_t, uint32_t> frames_;
  std::unordered_map<uint64_t, uint64_t> function_lines_;  // Frame id ->.
  std::unordered_map<uint64_t, Stack> stacks_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> histograms_;
  uint64_t stack_frames_read_ = 0, string_bytes_read_ = 0;

  // The optional section KIND of uleb pairs (uleb n, then n pairs), each
  // given to F; whether the section is there.
  template <typename F>
  bool read_pairs (uint32_t kind, const char *what, const char *item, F f)
  {
    const Span &s = sections_[kind];
    if (!s.present)
      return false;
    ByteCursor c (s.data, s.size);
    uint64_t n = c.count (c.uleb (what), 2, item);
    for (uint64_t i = 0; i < n; i++)
      {
        uint64_t a = c.uleb (what);
        f (a, c.uleb (what));
      }
    return true;
  }

  const Span &sec (uint32_t kind)
  {
    const Span &s = sections_[kind];
    if (!s.present)
      throw FormatError (format ("%s is missing", section_name (kind)));
    return s;
  }

  void parse_header (const uint8_t *data, size_t size)
  {
    ByteCursor h (data, size);
    if (size < 8 || h.u64 ("magic") != MEMPROF_INDEXED_MAGIC)
      throw FormatError ("not a memprof indexed profile (bad magic)");
    h.need (56, "indexed header");
    info.version = h.u64 ("indexed header");
    if (info.version != MEMPROF_INDEXED_VERSION)
      throw FormatError (format ("unsupported indexed profile version %llu "
                                 "(this reader knows version %d)",
                                 (unsigned long long) info.version,
                                 MEMPROF_INDEXED_VERSION));
    uint64_t hash_type = h.u64 ("indexed header");
    uint64_t total = h.u64 ("indexed header");
    uint64_t table_off = h.u64 ("indexed header");
    uint64_t count = h.u64 ("indexed header");
    if (hash_type != MEMPROF_HASH_FNV1A_64)
      throw FormatError (format ("unknown hash type %llu",
                                 (unsigned long long) hash_type));
    if (total > size)
      throw FormatError (format ("truncated: header says %llu bytes, file has "
                                 "%zu",
                                 (unsigned long long) total, size));
    ByteCursor t (data, static_cast<size_t> (total));
    t.seek (table_off, "section table");
    t.count (count, sizeof (memprof_indexed_section), "section");
    for (uint64_t i = 0; i < count; i++)
      {
        uint32_t kind = t.u32 ("section table");
        t.u32 ("section table");
        uint64_t off = t.u64 ("section table");
        uint64_t sz = t.u64 ("section table");
        if (off > total || sz > total - off)
          throw FormatError (format ("%s at offset %llu with size %llu runs "
                                     "past the end of the file (%llu bytes)",
                                     section_name (kind),
                                     (unsigned long long) off,
                                     (unsigned long long) sz,
                                     (unsigned long long) total));
        Span &s = sections_[kind];
        if (s.present)
          throw FormatError (format ("%s appears twice", section_name (kind)));
        s = Span{ data + off, static_cast<size_t> (sz), true };
      }
  }

  // The FUNCTIONS table's bucket count, after checking the table's shape.
  uint64_t check_function_table ()
  {
    const Span &fn = sections_[MEMPROF_SECTION_FUNCTIONS];
    ByteCursor h (fn.data, fn.size);
    uint64_t buckets = h.u64 ("function hash table");
    if (buckets == 0 || (buckets & (buckets - 1)) != 0)
      throw FormatError (format ("function hash table: bucket count %llu is "
                                 "not a power of two",
                                 (unsigned long long) buckets));
    if (buckets != h.remaining () / 16 || h.remaining () % 16 != 0)
      throw FormatError (format ("function hash table: %llu buckets do not "
                                 "fill its %zu bytes",
                                 (unsigned long long) buckets, fn.size));
    return buckets;
  }

  void prepare ()
  {
    if (sections_[MEMPROF_SECTION_TYPE_LAYOUTS].present)
      {
        // This file's layouts, their destructor flags from this file's
        // section, then added to the table's (a key already there kept).
        LayoutTable mine;
        read_layout_section (sections_[MEMPROF_SECTION_TYPE_LAYOUTS].data,
                             sections_[MEMPROF_SECTION_TYPE_LAYOUTS].size,
                             mine);
        const Span &d = sections_[MEMPROF_SECTION_TYPE_DESTRUCTORS];
        if (d.present)
          read_destructor_section (d.data, d.size, mine);
        table_.layouts.insert (std::make_move_iterator (mine.begin ()),
                               std::make_move_iterator (mine.end ()));
      }
    if (sections_[MEMPROF_SECTION_FUNCTIONS].present)
      check_function_table ();
    // Summary (optional).
    if (sections_[MEMPROF_SECTION_SUMMARY].present)
      {
        const Span &s = sections_[MEMPROF_SECTION_SUMMARY];
        ByteCursor c (s.data, s.size);
        uint64_t n = c.count (c.uleb ("summary"), 2, "summary entry");
        for (uint64_t i = 0; i < n; i++)
          {
            uint64_t tag = c.uleb ("summary");
            info.summary[tag] = c.uleb ("summary");
          }
        auto interval = info.summary.find (MEMPROF_SUMMARY_SAMPLE_INTERVAL);
        table_.note_sample_interval (
          interval == info.summary.end () ? 0 : interval->second,
          info.summary.count (MEMPROF_SUMMARY_SITE_CALIBRATED)
            && info.summary[MEMPROF_SUMMARY_SITE_CALIBRATED]);
        table_.num_profiles += info.summary[MEMPROF_SUMMARY_PROFILES];
        if (info.summary.count (MEMPROF_SUMMARY_UNATTRIBUTED_ALLOCS))
          table_.unattributed_allocs
            += info.summary[MEMPROF_SUMMARY_UNATTRIBUTED_ALLOCS];
        if (info.summary.count (MEMPROF_SUMMARY_UNATTRIBUTED_BYTES))
          table_.unattributed_bytes
            += info.summary[MEMPROF_SUMMARY_UNATTRIBUTED_BYTES];
        if (info.summary.count (MEMPROF_SUMMARY_UNINSTRUMENTED_PROFILES))
          table_.uninstrumented_profiles
            += info.summary[MEMPROF_SUMMARY_UNINSTRUMENTED_PROFILES];
        if (info.summary.count (MEMPROF_SUMMARY_PEAK_BYTES))
          {
            ContextTable::Peak p;
            p.known = true;
            p.bytes = info.summary[MEMPROF_SUMMARY_PEAK_BYTES];
            p.blocks = info.summary[MEMPROF_SUMMARY_PEAK_BLOCKS];
            p.time = info.summary[MEMPROF_SUMMARY_PEAK_TIME];
            table_.note_peak (p);
          }
      }
    else
      table_.note_sample_interval (0);
    // Histogram mode: the summary says so and the histograms come along.
    {
      const Span &h = sections_[MEMPROF_SECTION_HISTOGRAMS];
      auto g = info.summary.find (MEMPROF_SUMMARY_ACCESS_GRANULE);
      uint64_t granule = g != info.summary.end () ? g->second
                         : h.present              ? kHistogramSlotBytes
                                                  : kDefaultGranuleBytes;
      if (h.present && granule != kHistogramSlotBytes)
        throw FormatError ("histogram section in a profile of the default "
                           "mode");
      table_.note_access_granule (granule);
      if (h.present)
        read_histograms (h);
    }
    // Function start lines (optional).
    info.has_function_lines
      = read_pairs (MEMPROF_SECTION_FUNCTION_LINES, "function line table",
                    "function line", [this] (uint64_t frame, uint64_t line) {
                      function_lines_[frame] = line;
                    });
    // Schema.
    {
      ByteCursor c (sec (MEMPROF_SECTION_SCHEMA).data,
                    sec (MEMPROF_SECTION_SCHEMA).size);
      uint64_t n = c.count (c.uleb ("schema"), 1, "schema tag");
      for (uint64_t i = 0; i < n; i++)
        schema_.push_back (field_by_tag (c.uleb ("schema")));
    }
    // Modules left unsymbolized, and the programs merged in (optional).
    read_pairs (MEMPROF_SECTION_UNSYMBOLIZED, "unsymbolized module section",
                "unsymbolized module", [this] (uint64_t module, uint64_t why) {
                  table_.unsymbolized.emplace (string_at (module),
                                               string_at (why));
                });
    read_pairs (MEMPROF_SECTION_PROGRAMS, "program section", "program",
                [this] (uint64_t path, uint64_t runs) {
                  table_.programs[string_at (path)] += runs;
                });
    // Allocated types (optional).
    type_ids_.assign (1, 0);
    std::set<uint64_t> prefixes;      // TYPES indexes, from 1.
    if (sections_[MEMPROF_SECTION_TYPE_PREFIXES].present)
      {
        const Span &s = sections_[MEMPROF_SECTION_TYPE_PREFIXES];
        ByteCursor c (s.data, s.size);
        uint64_t n = c.count (c.uleb ("type prefix section"), 1,
                              "type prefix");
        for (uint64_t i = 0; i < n; i++)
          prefixes.insert (c.uleb ("type prefix section"));
      }
    std::map<uint64_t, uint64_t> offsets;   // TYPES index -> bytes.
    read_pairs (MEMPROF_SECTION_TYPE_OFFSETS, "type offset section",
                "type offset", [&offsets] (uint64_t type, uint64_t bytes) {
                  offsets[type] = bytes;
                });
    if (sections_[MEMPROF_SECTION_TYPES].present)
      {
        const Span &s = sections_[MEMPROF_SECTION_TYPES];
        ByteCursor c (s.data, s.size);
        uint64_t n = c.count (c.uleb ("type table"), 3, "type");
        for (uint64_t i = 0; i < n; i++)
          {
            AllocatedType t;
            t.name = string_at (c.uleb ("type table"));
            t.size = c.uleb ("type table");
            t.module = string_at (c.uleb ("type table"));
            t.prefix = prefixes.count (i + 1) != 0;
            auto o = offsets.find (i + 1);
            t.offset = o == offsets.end () ? 0 : o->second;
            type_ids_.push_back (table_.intern_type (t));
          }
      }
    // File paths, rebuilt from the reversed prefix tree.
    {
      ByteCursor c (sec (MEMPROF_SECTION_FILES).data,
                    sec (MEMPROF_SECTION_FILES).size);
      uint64_t n = c.count (c.uleb ("file path table"), 2, "file path node");
      std::vector<std::pair<uint64_t, uint64_t>> nodes (n);
      for (uint64_t i = 0; i < n; i++)
        {
          nodes[i].first = c.uleb ("file path table");
          nodes[i].second = c.uleb ("file path table");
          if (nodes[i].second > n)
            throw FormatError (format ("file path node %llu has parent %llu, "
                                       "past the %llu nodes",
                                       (unsigned long long) (i + 1),
                                       (unsigned long long) nodes[i].second,
                                       (unsigned long long) n));
        }
      // Resolve each node once, parents first; a node met again while
      // its own chain is being resolved closes a cycle.  The bytes of
      // all paths are bounded so a hostile tree cannot blow up memory.
      file_paths_.assign (n + 1, std::string ());
      std::vector<uint8_t> state (n + 1, 0);  // 0 new, 1 open, 2 done.
      state[0] = 2;
      uint64_t budget = 128 * (uint64_t) sec (MEMPROF_SECTION_FILES).size
                        + (1u << 20);
      uint64_t used = 0;
      std::vector<uint64_t> chain;
      for (uint64_t i = 1; i <= n; i++)
        {
          uint64_t k = i;
          while (state[k] == 0)
            {
              state[k] = 1;
              chain.push_back (k);
              k = nodes[k - 1].second;
            }
          if (state[k] == 1)
            throw FormatError (format ("file path table has a cycle through "
                                       "node %llu",
                                       (unsigned long long) k));
          while (!chain.empty ())
            {
              uint64_t j = chain.back ();
              chain.pop_back ();
              uint64_t parent = nodes[j - 1].second;
              const std::string &name = string_at (nodes[j - 1].first);
              std::string path = parent ? file_paths_[parent] + "/" + name
                                        : name;
              used += path.size ();
              if (used > budget)
                throw FormatError ("file path table expands to too many "
                                   "bytes");
              file_paths_[j] = std::move (path);
              state[j] = 2;
            }
        }
    }
  }

  void read_histograms (const Span &h)
  {
    ByteCursor c (h.data, h.size);
    uint64_t n = c.count (c.uleb ("histogram section"), 2, "histogram");
    for (uint64_t i = 0; i < n; i++)
      {
        uint64_t stack = c.uleb ("histogram section");
        uint64_t k = c.count (c.uleb ("histogram section"), 1,
                              "histogram slot");
        std::vector<uint64_t> &v = histograms_[stack];
        if (!v.empty ())
          throw FormatError (format ("histogram section: stack %llu has two "
                                     "histograms",
                                     (unsigned long long) stack));
        v.reserve (k);
        for (uint64_t j = 0; j < k; j++)
          v.push_back (c.uleb ("histogram section"));
      }
  }

  const std::string &string_at (uint64_t id)
  {
    auto it = strings_.find (id);
    if (it != strings_.end ())
      return it->second;
    const Span &s = sec (MEMPROF_SECTION_STRINGS);
    ByteCursor c (s.data, s.size);
    c.seek (id, "string id");
    uint64_t len = c.uleb ("string table");
    const uint8_t *p = c.bytes (len, "string table");
    string_bytes_read_ += len;
    if (string_bytes_read_ > s.size)
      throw FormatError ("string table: string ids overlap");
    if (!valid_utf8 (p, len))
      throw FormatError (format ("string at offset %llu of the string table "
                                 "is not valid UTF-8",
                                 (unsigned long long) id));
    return strings_.emplace (id, std::string ((const char *) p, len))
      .first->second;
  }

  uint32_t frame_at (uint64_t id)
  {
    auto it = frames_.find (id);
    if (it != frames_.end ())
      return it->second;
    const Span &s = sec (MEMPROF_SECTION_FRAMES);
    ByteCursor c (s.data, s.size);
    c.seek (id, "frame id");
    Frame f;
    uint64_t fn = c.uleb ("frame table");
    f.function = fn ? string_at (fn) : std::string ();
    uint64_t file = c.uleb ("frame table");
    if (file >= file_paths_.size ())
      throw FormatError (format ("frame at offset %llu refers to file %llu, "
                                 "past the %zu files",
                                 (unsigned long long) id,
                                 (unsigned long long) file,
                                 file_paths_.size () - 1));
    f.file = file_paths_[file];
    f.line = c.uleb ("frame table");
    f.column = c.uleb ("frame table");
    f.discriminator = c.uleb ("frame table");
    uint64_t frame_flags = c.uleb ("frame table");
    f.inlined = frame_flags & 1;
    f.folded = (frame_flags & 2) != 0;
    f.cut = (frame_flags & 4) != 0;
    f.module = string_at (c.uleb ("frame table"));
    f.address = c.uleb ("frame table");
    auto fl = function_lines_.find (id);
    if (fl != function_lines_.end ())
      f.function_line = fl->second;
    uint32_t tid = table_.intern_frame (f);
    frames_.emplace (id, tid);
    return tid;
  }

  const Stack &stack_at (uint64_t id)
  {
    auto it = stacks_.find (id);
    if (it != stacks_.end ())
      return it->second;
    const Span &s = sec (MEMPROF_SECTION_STACKS);
    ByteCursor c (s.data, s.size);
    c.seek (id, "stack id");
    uint64_t n = c.count (c.uleb ("stack table"), 1, "stack frame");
    // Stacks written by memprof-merge never overlap, so all of them hold
    // at most one frame per byte; overlapping hostile ids cannot exceed it.
    stack_frames_read_ += n;
    if (stack_frames_read_ > s.size)
      throw FormatError ("stack table: stack ids overlap");
    Stack st;
    st.reserve (n);
    for (uint64_t i = 0; i < n; i++)
      st.push_back (frame_at (c.uleb ("stack table")));
    return stacks_.emplace (id, std::move (st)).first->second;
  }

  // The groups of the C++ standard library's functions but ONLY's,
  // found through the hash table's BUCKETS, less those READ already: a
  // group's first uleb names its function, so the others' records are
  // not read (nor trusted).
  void read_library_groups (FunctionFilter &only, uint64_t buckets,
                            std::unordered_set<uint64_t> &read)
  {
    const Span &recs = sec (MEMPROF_SECTION_RECORDS);
    const Span &fn = sections_[MEMPROF_SECTION_FUNCTIONS];
    for (uint64_t b = 0; b < buckets; b++)
      {
        ByteCursor e (fn.data, fn.size, 8 + 16 * b);
        e.u64 ("function hash bucket");
        uint64_t off = e.u64 ("function hash bucket");
        if (off == UINT64_MAX || !read.insert (off).second)
          continue;
        ByteCursor c (recs.data, recs.size);
        c.seek (off, "function hash table: group offset");
        ByteCursor head = c;
        uint64_t id = head.uleb ("record section");
        if (id && library_function (string_at (id)))
          read_group (c, &only, Select::LIBRARY_NOT_MATCH);
      }
  }

  // Which groups --function=ONLY reads: the function's own, and those
  // of the C++ standard library's functions, whose contexts may reach it
  // further out (report_order picks them).  MATCH and MATCH_OR_LIBRARY
  // also take, from any other group, the records whose frame 0 was
  // inlined into ONLY.
  enum class Select { MATCH, MATCH_OR_LIBRARY, LIBRARY_NOT_MATCH };

  // Read the group at C, leaving C after it; when ONLY is given, only the
  // records SELECT picks are added, the others read past.  The result:
  // whether any record was added.
  bool read_group (ByteCursor &c, FunctionFilter *only = nullptr,
                   Select select = Select::MATCH_OR_LIBRARY)
  {
    uint64_t fn = c.uleb ("record section");
    const std::string &name = fn ? string_at (fn) : std::string ();
    uint64_t n = c.count (c.uleb ("record section"), 1 + schema_.size (),
                          "record");
    bool wanted = !only, by_stack = false;
    if (only)
      {
        bool match = only->matches (name);
        bool library = library_function (name);
        wanted = select == Select::MATCH ? match
                 : select == Select::LIBRARY_NOT_MATCH ? !match && library
                                                       : match || library;
        by_stack = !wanted && !library && select != Select::LIBRARY_NOT_MATCH;
      }
    bool added = false;
    for (uint64_t i = 0; i < n; i++)
      {
        uint64_t stack = c.uleb ("record section");
        FieldValues v{};
        for (int idx : schema_)
          {
            uint64_t value = c.uleb ("record section");
            if (idx >= 0)
              v[idx] = value;
          }
        if (v[F_data_type_id] >= type_ids_.size ())
          throw FormatError (format ("record has data_type_id %llu, past the "
                                     "%zu types of the type table",
                                     (unsigned long long) v[F_data_type_id],
                                     type_ids_.size () - 1));
        v[F_data_type_id] = type_ids_[v[F_data_type_id]];
        if (wanted || (by_stack && only->selects (table_, stack_at (stack))))
          {
            auto h = histograms_.find (stack);
            table_.add (stack_at (stack), v, 0,
                        h == histograms_.end () ? nullptr : &h->second);
            added = true;
          }
      }
    return added;
  }
};

} // namespace

IndexedInfo
read_indexed (const uint8_t *data, size_t size, ContextTable &table)
{
  Reader r (data, size, table);
  r.read_all ();
  return r.info;
}

IndexedInfo
read_indexed_function (const uint8_t *data, size_t size,
                       const std::string &function,
                       const std::vector<std::string> &allocators,
                       ContextTable &table)
{
  Reader r (data, size, table);
  r.read_function (function, allocators);
  return r.info;
}

} // namespace memprof
