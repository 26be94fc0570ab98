// pprof's profile.proto, gzipped, written by hand.
//
// Why by hand: the message is small and fixed (a few scalar and
// repeated fields of six message types, github.com/google/pprof
// proto/profile.proto), and writing its wire format is a page of code,
// where libprotobuf would add a build dependency, a code generator and
// a C++ runtime to the tools for one output.  Only the wire types
// varint (0) and length-delimited (2) are needed; repeated scalars are
// packed.  zlib makes the gzip stream.
//
// Mapping (documented in the manual): one sample per context, its
// location ids innermost first; one location per program counter, whose
// lines are the PC's frames innermost first (inlined frames first, the
// function they were inlined into last), as pprof models inlining.  One
// mapping per module (executable or shared library) named by its path,
// marked as already symbolized so pprof neither looks for the binary
// nor re-symbolizes; addresses are link-time ones, so each mapping
// starts at 0 and ends past its highest address.  A
// sample whose allocated type is known has the labels type (its name)
// and type_size (bytes).
#include "export_formats.h"
#include "diag.h"

#include "frame_names.h"
#include "mib_fields.h"
#include "text_report.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <map>
#include <tuple>
#include <string>
#include <unordered_map>
#include <zlib.h>

namespace memprof {

namespace {

// A protobuf message being built.
class Message
{
public:
  void varint (uint64_t v)
  {
    while (v >= 0x80)
      {
        bytes_ += static_cast<char> ((v & 0x7f) | 0x80);
        v >>= 7;
      }
    bytes_ += static_cast<char> (v);
  }
  void key (int field, int wire_type) { varint ((uint64_t (field) << 3) | wire_type); }
  // A varint field; proto3 leaves zero values out.
  void u64 (int field, uint64_t v)
  {
    if (!v)
      return;
    key (field, 0);
    varint (v);
  }
  void bytes (int field, const std::string &b)
  {
    key (field, 2);
    varint (b.size ());
    bytes_ += b;
  }
  void message (int field, const Message &m) { bytes (field, m.bytes_); }
  void packed (int field, const std::vector<uint64_t> &vs)
  {
    Message p;
    for (uint64_t v : vs)
      p.varint (v);
    bytes (field, p.bytes_);
  }
  const std::string &data () const { return bytes_; }

private:
  std::string bytes_;
};

// Profile's field numbers.
enum
{
  kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5,
  kStringTable = 6, kDurationNanos = 10, kPeriodType = 11, kPeriod = 12,
  kComment = 13, kDefaultSampleType = 14
};

class StringTable
{
public:
  StringTable () { id (""); }
  uint64_t id (const std::string &s)
  {
    auto it = ids_.find (s);
    if (it != ids_.end ())
      return it->second;
    ids_.emplace (s, strings_.size ());
    strings_.push_back (s);
    return strings_.size () - 1;
  }
  const std::vector<std::string> &strings () const { return strings_; }

private:
  std::unordered_map<std::string, uint64_t> ids_;
  std::vector<std::string> strings_;
};

// The sample types, in value order: pprof name, unit, and our field.
struct SampleType
{
  const char *type, *unit;
  int field;
};
const SampleType kSampleTypes[] = {
  { "alloc_objects", "count", F_alloc_count },
  { "alloc_space", "bytes", F_total_size },
  { "accesses", "count", F_total_access_count },
  { "inuse_objects", "count", F_blocks_at_exit },
  { "inuse_space", "bytes", F_bytes_at_exit },
  { "peak_objects", "count", F_blocks_at_peak },
  { "peak_space", "bytes", F_bytes_at_peak },
  { "max_live_space", "bytes", F_max_live_bytes },
};

Message
value_type (StringTable &st, const char *type, const char *unit)
{
  Message m;
  m.u64 (1, st.id (type));
  m.u64 (2, st.id (unit));
  return m;
}

bool
write_gzip (FILE *out, const std::string &data)
{
  z_stream z = {};
  // windowBits 15 + 16: a gzip header and trailer around the stream.
  if (deflateInit2 (&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                    Z_DEFAULT_STRATEGY) != Z_OK)
    {
      errno = ENOMEM;
      return false;
    }
  z.next_in = reinterpret_cast<Bytef *> (const_cast<char *> (data.data ()));
  if (data.size () > UINT32_MAX)
    {
      errno = EFBIG;   // zlib's uInt: more than any profile makes.
      return false;
    }
  z.avail_in = static_cast<uInt> (data.size ());
  unsigned char buf[65536];
  int r;
  do
    {
      z.next_out = buf;
      z.avail_out = sizeof buf;
      r = deflate (&z, Z_FINISH);
      size_t n = sizeof buf - z.avail_out;
      if (n && std::fwrite (buf, 1, n, out) != n)
        {
          deflateEnd (&z);
          return false;
        }
    }
  while (r == Z_OK);
  deflateEnd (&z);
  return r == Z_STREAM_END && !std::ferror (out);
}

} // namespace

bool
write_pprof (FILE *out, const ContextTable &table,
             const std::vector<const Context *> &records, const RunInfo &run)
{
  StringTable st;
  Message profile;
  for (const SampleType &t : kSampleTypes)
    profile.message (kSampleType, value_type (st, t.type, t.unit));

  // Functions by (name, linkage name, file); locations by their frames.
  // A frame a recursion was folded into names a function of its own,
  // its name and linkage name marked (frame_export_name): every pprof
  // consumer shows one or the other, and the folded and unfolded frames
  // of one function are kept apart.
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t>
    function_ids;
  std::map<std::vector<uint32_t>, uint64_t> location_ids;
  // Modules by path: their mapping id (in order of first use) and the
  // highest address seen in them.
  std::map<std::string, std::pair<uint64_t, uint64_t>> modules;
  Message functions, locations;
  auto function_id = [&] (const Frame &f) {
    std::string name = frame_export_name (f);
    // A C++ function without a linkage name (internal linkage) is named
    // from its scopes, as demangled: it has no system name.  Given as
    // one, equal to the name, pprof took the name for its own to
    // simplify and cut every parenthesis out, "(anonymous namespace)"
    // too (jsoncpp's Json::::valueToString[abi:cxx11]).
    bool scoped = f.function.compare (0, 2, "_Z") != 0
                  && f.function.find_first_of (":(") != std::string::npos;
    std::string system_name
      = f.function.empty () ? name
        : scoped            ? std::string ()
                            : f.function + frame_marks (f);
    auto key = std::make_tuple (name, system_name, f.file);
    // Ids count from 1 in order of first use; one lookup inserts or finds.
    auto ins = function_ids.emplace (key, function_ids.size () + 1);
    uint64_t id = ins.first->second;
    if (!ins.second)
      return id;
    Message fn;
    fn.u64 (1, id);
    fn.u64 (2, st.id (name));
    fn.u64 (3, st.id (system_name));
    fn.u64 (4, st.id (f.file));
    functions.message (kFunction, fn);
    return id;
  };
  auto location_id = [&] (const std::vector<uint32_t> &frames) {
    auto ins = location_ids.emplace (frames, location_ids.size () + 1);
    uint64_t id = ins.first->second;
    if (!ins.second)
      return id;
    const Frame &pc = table.frame (frames.back ());
    Message loc;
    loc.u64 (1, id);
    // A frame of no known module has no mapping (id 0: none).
    if (!pc.module.empty ())
      {
        auto mod = modules.emplace (pc.module,
                                    std::make_pair (modules.size () + 1, 0));
        uint64_t &highest = mod.first->second.second;
        highest = std::max (highest, pc.address);
        loc.u64 (2, mod.first->second.first);
      }
    loc.u64 (3, pc.address);
    for (uint32_t fid : frames)
      {
        const Frame &f = table.frame (fid);
        Message line;
        line.u64 (1, function_id (f));
        line.u64 (2, f.line);
        line.u64 (3, f.column);
        loc.message (4, line);
      }
    locations.message (kLocation, loc);
    return id;
  };

  std::vector<uint32_t> run_frames;
  std::vector<uint64_t> loc_ids, values;
  for (const Context *c : records)
    {
      loc_ids.clear ();
      run_frames.clear ();
      for (uint32_t fid : c->stack)
        {
          run_frames.push_back (fid);
          // A PC's frames end with the one it was not inlined into.
          if (!table.frame (fid).inlined)
            {
              loc_ids.push_back (location_id (run_frames));
              run_frames.clear ();
            }
        }
      if (!run_frames.empty ())
        loc_ids.push_back (location_id (run_frames));
      values.clear ();
      for (const SampleType &t : kSampleTypes)
        values.push_back (c->fields[t.field]);
      Message sample;
      sample.packed (1, loc_ids);
      sample.packed (2, values);
      // The allocated type as labels (go tool pprof -tags, -tagfocus).
      if (const AllocatedType *t = table.context_type (*c))
        {
          Message name;
          name.u64 (1, st.id ("type"));
          name.u64 (2, st.id (t->name));
          sample.message (3, name);
          Message size;
          size.u64 (1, st.id ("type_size"));
          size.u64 (3, t->size);
          size.u64 (4, st.id ("bytes"));
          sample.message (3, size);
        }
      profile.message (kSample, sample);
    }
  // The unattributed allocations: a sample of their own, at one
  // location of no module whose one function is "[unattributed]".
  if (run.unattributed_allocs || run.unattributed_bytes)
    {
      uint64_t fid = function_ids.size () + 1;
      Message fn;
      fn.u64 (1, fid);
      fn.u64 (2, st.id (kUnattributedFrame));
      fn.u64 (3, st.id (kUnattributedFrame));
      functions.message (kFunction, fn);
      uint64_t lid = location_ids.size () + 1;
      Message loc, line;
      loc.u64 (1, lid);
      line.u64 (1, fid);
      loc.message (4, line);
      locations.message (kLocation, loc);
      values.clear ();
      for (const SampleType &t : kSampleTypes)
        values.push_back (t.field == F_alloc_count ? run.unattributed_allocs
                          : t.field == F_total_size ? run.unattributed_bytes
                                                     : 0);
      Message sample;
      sample.packed (1, std::vector<uint64_t> { lid });
      sample.packed (2, values);
      profile.message (kSample, sample);
    }
  // Fields may come in any order: the string table last, once every
  // string has its id.
  std::vector<const std::pair<const std::string,
                               std::pair<uint64_t, uint64_t>> *>
    by_id (modules.size ());
  for (const auto &m : modules)
    by_id[m.second.first - 1] = &m;
  // pprof takes the first mapping for the main binary ("File:" in its
  // reports): the first module that is no shared library (its name has
  // no ".so" part), else the first used.
  auto main_module = std::find_if (by_id.begin (), by_id.end (),
                                   [] (const auto *m) {
                                     return !shared_object (m->first);
                                   });
  if (main_module != by_id.end ())
    std::rotate (by_id.begin (), main_module, main_module + 1);
  Message mappings;
  for (const auto *m : by_id)
    {
      Message mapping;
      mapping.u64 (1, m->second.first);
      mapping.u64 (3, m->second.second + 1);    // memory_limit
      mapping.u64 (5, st.id (m->first));        // filename
      for (int has = 7; has <= 10; has++)       // has_functions .. _inline_frames
        mapping.u64 (has, 1);
      mappings.message (kMapping, mapping);
    }
  std::string data = profile.data ();
  data += mappings.data ();
  data += locations.data ();
  data += functions.data ();
  Message tail;
  tail.u64 (kDurationNanos, run.duration_ms * 1000000);
  tail.message (kPeriodType, value_type (st, "space", "bytes"));
  tail.u64 (kPeriod, 1);
  if (!run.command.empty ())
    {
      tail.key (kComment, 0);
      tail.varint (st.id ("command: " + run.command));
    }
  // A sampled profile's values are estimates: pprof -comments says so.
  if (table.sample_interval)
    {
      tail.key (kComment, 0);
      tail.varint (st.id (format ("sampled: sample_interval=%llu; the values "
                                  "are estimates%s",
                                  (unsigned long long) table.sample_interval,
                                  table.site_calibrated
                                    ? " (per allocation site, allocated "
                                      "bytes and objects are exact, at its "
                                      "contexts or, for sites whose "
                                      "sampled blocks could not stand for "
                                      "them, at [unattributed])"
                                    : "").c_str ()));
    }
  tail.u64 (kDefaultSampleType, st.id ("alloc_space"));
  Message strings;
  for (const std::string &s : st.strings ())
    strings.bytes (kStringTable, s);
  data += strings.data ();
  data += tail.data ();
  return write_gzip (out, data);
}

} // namespace memprof
