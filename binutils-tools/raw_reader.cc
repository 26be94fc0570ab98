// Reader of raw profiles.
#include "raw_reader.h"

#include "byte_cursor.h"
#include "diag.h"

#include "memprof/raw_format.h"

#include <algorithm>
#include <cstring>

namespace memprof {

static_assert (sizeof (memprof_raw_header) == 128, "raw header layout");
static_assert (sizeof (memprof_raw_segment) == 72, "raw segment layout");

bool
looks_like_raw (const uint8_t *data, size_t size)
{
  ByteCursor c (data, size);
  return size >= 8 && c.u64 ("magic") == MEMPROF_RAW_MAGIC;
}

std::string
hex_build_id (const std::string &bytes)
{
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (unsigned char b : bytes)
    {
      s += digits[b >> 4];
      s += digits[b & 15];
    }
  return s;
}

static std::string
checked_string (ByteCursor &c, uint64_t n, const char *what)
{
  const uint8_t *p = c.bytes (n, what);
  if (!valid_utf8 (p, n))
    throw FormatError (format ("%s is not valid UTF-8", what));
  return std::string (reinterpret_cast<const char *> (p), n);
}

static void
read_metadata (ByteCursor c, RawProfile &prof)
{
  uint64_t n = c.count (c.u64 ("metadata count"), 8, "metadata item");
  for (uint64_t i = 0; i < n; i++)
    {
      uint32_t tag = c.u32 ("metadata tag");
      uint32_t len = c.u32 ("metadata length");
      c.need (len, "metadata item");
      ByteCursor item (c.bytes (len, "metadata item"), len);
      auto u64_item = [&] (const char *what) {
        if (len != 8)
          throw FormatError (format ("metadata %s has length %u, not 8", what,
                                     len));
        return item.u64 (what);
      };
      switch (tag)
        {
        case MEMPROF_META_EXECUTABLE:
          prof.executable = checked_string (item, len, "executable path");
          break;
        case MEMPROF_META_HOSTNAME:
          prof.hostname = checked_string (item, len, "host name");
          break;
        case MEMPROF_META_RUNTIME_VERSION:
          prof.runtime_version = checked_string (item, len, "runtime version");
          break;
        case MEMPROF_META_COMMAND_LINE:
          {
            std::string all = checked_string (item, len, "command line");
            size_t start = 0;
            for (size_t k = 0; k < all.size (); k++)
              if (all[k] == '\0')
                {
                  prof.command_line.push_back (all.substr (start, k - start));
                  start = k + 1;
                }
            if (start < all.size ())
              prof.command_line.push_back (all.substr (start));
            break;
          }
        case MEMPROF_META_PID:
          prof.pid = u64_item ("pid");
          break;
        case MEMPROF_META_PARENT_PID:
          prof.parent_pid = u64_item ("parent pid");
          break;
        case MEMPROF_META_START_TIME:
          prof.start_time = u64_item ("start time");
          break;
        case MEMPROF_META_END_TIME:
          prof.end_time = u64_item ("end time");
          break;
        case MEMPROF_META_DUMP_SEQUENCE:
          prof.dump_sequence = u64_item ("dump sequence");
          break;
        case MEMPROF_META_PEAK_BYTES:
          prof.peak_bytes = u64_item ("peak bytes");
          prof.has_peak = true;
          break;
        case MEMPROF_META_PEAK_BLOCKS:
          prof.peak_blocks = u64_item ("peak blocks");
          break;
        case MEMPROF_META_PEAK_TIME:
          prof.peak_time = u64_item ("peak time");
          break;
        case MEMPROF_META_SAMPLE_INTERVAL:
          prof.sample_interval = u64_item ("sample interval");
          break;
        case MEMPROF_META_SITE_CALIBRATED:
          prof.site_calibrated = u64_item ("site calibrated") != 0;
          break;
        case MEMPROF_META_UNATTRIBUTED_ALLOCS:
          prof.unattributed_allocs = u64_item ("unattributed allocations");
          break;
        case MEMPROF_META_UNATTRIBUTED_BYTES:
          prof.unattributed_bytes = u64_item ("unattributed bytes");
          break;
        case MEMPROF_META_UNINSTRUMENTED:
          prof.uninstrumented = u64_item ("uninstrumented") != 0;
          break;
        case MEMPROF_META_WRITTEN_AT:
          prof.written_at = u64_item ("written at");
          break;
        case MEMPROF_META_ACCESS_GRANULE:
          prof.access_granule = u64_item ("access granule");
          if (prof.access_granule != 8 && prof.access_granule != 64)
            throw FormatError (format ("metadata access granule is %llu "
                                       "bytes, not 8 or 64",
                                       (unsigned long long)
                                         prof.access_granule));
          break;
        default:
          break;                // Unknown tags are skipped.
        }
      c.align8 ("metadata padding");
    }
}

static void
read_segments (ByteCursor c, RawProfile &prof)
{
  bool generations = prof.version >= 2;
  uint64_t n = c.count (c.u64 ("segment count"), generations ? 80 : 72,
                        "segment");
  prof.segments.reserve (n);
  for (uint64_t i = 0; i < n; i++)
    {
      RawSegment s;
      s.start = c.u64 ("segment start");
      s.end = c.u64 ("segment end");
      s.offset = c.u64 ("segment offset");
      s.load_address = c.u64 ("segment load address");
      uint32_t id_size = c.u32 ("segment build id size");
      uint32_t path_len = c.u32 ("segment path length");
      const uint8_t *id = c.bytes (MEMPROF_BUILD_ID_MAX, "segment build id");
      if (generations)
        s.unload_generation = c.u64 ("segment unload generation");
      if (id_size > MEMPROF_BUILD_ID_MAX)
        throw FormatError (format ("segment %llu: build id size %u exceeds %d",
                                   (unsigned long long) i, id_size,
                                   MEMPROF_BUILD_ID_MAX));
      if (s.end < s.start)
        throw FormatError (format ("segment %llu: end 0x%llx is before start "
                                   "0x%llx",
                                   (unsigned long long) i,
                                   (unsigned long long) s.end,
                                   (unsigned long long) s.start));
      s.build_id.assign (reinterpret_cast<const char *> (id), id_size);
      s.path = checked_string (c, path_len, "segment path");
      c.align8 ("segment padding");
      prof.segments.push_back (std::move (s));
    }
}

static void
store_u64le (uint8_t *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = static_cast<uint8_t> (v >> (8 * i));
}

// Builds the in-place views of the MIB and stack sections (version 5:
// decoded copies).
struct RawSectionReader
{
  static void read_mibs (ByteCursor c, RawProfile &prof)
  {
    if (prof.version >= 5)
      {
        // Each record: VALUES ulebs, at least a byte each.
        uint64_t n = c.u64 ("MIB count");
        uint64_t values = c.u64 ("MIB value count");
        if (values < 1 || values > 8192)
          throw FormatError (format ("MIB value count %llu is invalid",
                                     (unsigned long long) values));
        c.count (n, values, "MIB record");
        prof.mibs.decoded_.resize (n * values);
        for (uint64_t &v : prof.mibs.decoded_)
          v = c.uleb ("MIB record");
        prof.mibs.count_ = n;
        prof.mibs.values_ = values;
        return;
      }
    uint64_t n = c.u64 ("MIB count");
    uint64_t record_size = c.u64 ("MIB record size");
    if (record_size < 8 || record_size % 8 != 0 || record_size > 65536)
      throw FormatError (format ("MIB record size %llu is invalid",
                                 (unsigned long long) record_size));
    c.count (n, record_size, "MIB record");
    prof.mibs.data_ = c.bytes (n * record_size, "MIB record");
    prof.mibs.count_ = n;
    prof.mibs.record_size_ = record_size;
  }

  static void read_stacks (ByteCursor c, RawProfile &prof)
  {
    if (prof.version >= 5)
      {
        read_stacks_v5 (c, prof);
        return;
      }
    bool generations = prof.version >= 2;
    uint64_t n = c.count (c.u64 ("stack count"), generations ? 24 : 16,
                          "stack");
    if (n > UINT32_MAX)
      throw FormatError (format ("stack count %llu is more than this reader "
                                 "handles",
                                 (unsigned long long) n));
    std::vector<RawStacks::Entry> &index = prof.stacks.index_;
    std::vector<std::pair<uint64_t, uint32_t>> &by_id = prof.stacks.by_id_;
    index.reserve (n);
    by_id.reserve (n);
    for (uint64_t i = 0; i < n; i++)
      {
        uint64_t id = c.u64 ("stack id");
        uint64_t count = c.u64 ("stack frame count");
        uint64_t generation = generations ? c.u64 ("stack generation") : 0;
        uint64_t frames = c.count (count, 8, "stack frame");
        index.push_back ({ id, c.bytes (frames * 8, "stack frame"), frames,
                           generation });
        by_id.emplace_back (id, static_cast<uint32_t> (i));
      }
    sort_ids (prof.stacks);
  }

  // Version 5: ulebs, frames coded against the frame before, outer
  // frames shared with the entry before (raw_format.h).
  static void read_stacks_v5 (ByteCursor c, RawProfile &prof)
  {
    // An entry is four ulebs at least.
    uint64_t n = c.count (c.u64 ("stack count"), 4, "stack");
    if (n > UINT32_MAX)
      throw FormatError (format ("stack count %llu is more than this reader "
                                 "handles",
                                 (unsigned long long) n));
    RawStacks &st = prof.stacks;
    st.index_.reserve (n);
    st.by_id_.reserve (n);
    // The pcs, decoded into the entries' buffer as version 4 holds them;
    // each entry's place in it, pointed to once it stops growing.
    std::vector<uint8_t> &pcs = st.decoded_;
    pcs.clear ();
    std::vector<uint64_t> start;
    uint64_t before_start = 0, before_frames = 0;
    // Shared frames cost no bytes: a damaged or hostile section could
    // make each 4-byte entry stand for the whole stack before it.  The
    // runtime keeps at most 256 frames a stack, and no stack of its
    // shares more than a few dozen frames per byte of the section.
    const uint64_t kMaxFrames = 4096;
    const uint64_t budget = 64 * (uint64_t) c.remaining () + 65536;
    for (uint64_t i = 0; i < n; i++)
      {
        uint64_t id = c.uleb ("stack id");
        uint64_t frames = c.uleb ("stack frame count");
        uint64_t generation = c.uleb ("stack generation");
        uint64_t shared = c.uleb ("stack shared frame count");
        if (shared > frames || shared > before_frames)
          throw FormatError (format ("stack id 0x%llx shares %llu frames of "
                                     "%llu with a stack of %llu",
                                     (unsigned long long) id,
                                     (unsigned long long) shared,
                                     (unsigned long long) frames,
                                     (unsigned long long) before_frames));
        // Its own frames take a byte each at least.
        c.count (frames - shared, 1, "stack frame");
        if (frames > kMaxFrames || pcs.size () / 8 + frames > budget)
          throw FormatError (format ("stack id 0x%llx has %llu frames, %llu "
                                     "of them the stack before's: more than "
                                     "this reader takes from a section of "
                                     "this size",
                                     (unsigned long long) id,
                                     (unsigned long long) frames,
                                     (unsigned long long) shared));
        uint64_t at = pcs.size ();
        pcs.resize (at + 8 * frames);
        uint64_t prev = 0;
        for (uint64_t k = 0; k < frames - shared; k++)
          {
            uint64_t pc = memprof_raw_frame_pc (c.uleb ("stack frame"), prev);
            store_u64le (&pcs[at + 8 * k], pc);
            prev = pc & ~MEMPROF_RAW_PC_FLAGS;
          }
        if (shared)
          std::memcpy (&pcs[at + 8 * (frames - shared)],
                       &pcs[before_start + 8 * (before_frames - shared)],
                       8 * shared);
        start.push_back (at);
        st.index_.push_back ({ id, nullptr, frames, generation });
        st.by_id_.emplace_back (id, static_cast<uint32_t> (i));
        before_start = at;
        before_frames = frames;
      }
    for (size_t i = 0; i < st.index_.size (); i++)
      st.index_[i].pcs = pcs.data () + start[i];
    sort_ids (st);
  }

  static void sort_ids (RawStacks &st)
  {
    std::vector<std::pair<uint64_t, uint32_t>> &by_id = st.by_id_;
    std::sort (by_id.begin (), by_id.end ());
    for (size_t i = 1; i < by_id.size (); i++)
      if (by_id[i].first == by_id[i - 1].first)
        throw FormatError (format ("stack id 0x%llx appears twice",
                                   (unsigned long long) by_id[i].first));
  }
};

const RawStacks::Entry *
RawStacks::find (uint64_t id, uint64_t hint) const
{
  if (hint < index_.size () && index_[hint].id == id)
    return &index_[hint];
  auto it = std::lower_bound (by_id_.begin (), by_id_.end (),
                              std::make_pair (id, uint32_t (0)));
  return it != by_id_.end () && it->first == id ? &index_[it->second]
                                                : nullptr;
}

uint64_t
RawMibs::stack_id (uint64_t i) const
{
  if (values_)
    return decoded_[i * values_];
  return load_u64le (data_ + i * record_size_);
}

RawMib
RawMibs::at (uint64_t i) const
{
  if (values_)
    {
      const uint64_t *v = &decoded_[i * values_];
      RawMib m;
      m.stack_id = v[0];
      int f = 0;
      for (; f < NUM_FIELDS && f + 1 < static_cast<int> (values_); f++)
        m.fields[f] = v[f + 1];
      for (; f < NUM_FIELDS; f++)
        m.fields[f] = 0;
      return m;
    }
  const uint8_t *p = data_ + i * record_size_;
  RawMib m;
  m.stack_id = load_u64le (p);
  uint64_t known = (record_size_ - 8) / 8;
  int f = 0;
  for (; f < NUM_FIELDS && f < static_cast<int> (known); f++)
    m.fields[f] = load_u64le (p + 8 + 8 * f);
  for (; f < NUM_FIELDS; f++)
    m.fields[f] = 0;
  return m;
}

// The histogram section (histogram mode).
static void
read_histograms (ByteCursor c, RawProfile &prof)
{
  // Version 5: ulebs, a byte each at least.
  bool ulebs = prof.version >= 5;
  auto value = [&] (const char *what) {
    return ulebs ? c.uleb (what) : c.u64 (what);
  };
  uint64_t n = c.count (c.u64 ("histogram count"), ulebs ? 2 : 16,
                        "histogram");
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t id = value ("histogram stack id");
      uint64_t slots = c.count (value ("histogram slot count"), ulebs ? 1 : 8,
                                "histogram slot");
      std::vector<uint64_t> &h = prof.histograms[id];
      if (!h.empty ())
        throw FormatError (format ("histogram of stack id 0x%llx appears "
                                   "twice",
                                   (unsigned long long) id));
      h.reserve (slots);
      for (uint64_t k = 0; k < slots; k++)
        h.push_back (value ("histogram slot"));
    }
}

// Read the profile at the start of C's span; return its total size.
static uint64_t
read_one (const uint8_t *data, size_t size, RawProfile &prof)
{
  ByteCursor h (data, size);
  if (size < 8 || h.u64 ("magic") != MEMPROF_RAW_MAGIC)
    throw FormatError ("not a memprof raw profile (bad magic)");
  prof.version = h.u64 ("raw header");
  if (prof.version < 1 || prof.version > MEMPROF_RAW_VERSION)
    throw FormatError (format ("unsupported raw profile version %llu "
                               "(this reader knows versions 1 to %d)",
                               (unsigned long long) prof.version,
                               MEMPROF_RAW_VERSION));
  uint64_t total = h.u64 ("raw header");
  h.need (sizeof (memprof_raw_header) - 24, "raw header");
  if (total < sizeof (memprof_raw_header) || total > size)
    throw FormatError (format ("truncated: header says %llu bytes, file has "
                               "%zu",
                               (unsigned long long) total, size));
  uint64_t meta = h.u64 ("raw header");
  uint64_t seg = h.u64 ("raw header");
  uint64_t mib = h.u64 ("raw header");
  uint64_t stk = h.u64 ("raw header");
  uint64_t hist = h.u64 ("raw header");
  ByteCursor body (data, static_cast<size_t> (total));
  ByteCursor c = body;
  c.seek (meta, "metadata section");
  read_metadata (c, prof);
  c = body;
  c.seek (seg, "segment section");
  read_segments (c, prof);
  c = body;
  c.seek (stk, "stack section");
  RawSectionReader::read_stacks (c, prof);
  c = body;
  c.seek (mib, "MIB section");
  RawSectionReader::read_mibs (c, prof);
  if (hist)
    {
      if (prof.access_granule != 8)
        throw FormatError ("histogram section in a profile of the default "
                           "mode (no 8-byte access granule)");
      c = body;
      c.seek (hist, "histogram section");
      read_histograms (c, prof);
    }
  for (uint64_t i = 0; i < prof.mibs.size (); i++)
    {
      uint64_t id = prof.mibs.stack_id (i);
      if (!prof.stacks.find (id, i))
        throw FormatError (format ("MIB record refers to missing stack id "
                                   "0x%llx",
                                   (unsigned long long) id));
    }
  return total;
}

std::vector<RawProfile>
read_raw_profiles (const uint8_t *data, size_t size)
{
  std::vector<RawProfile> out;
  size_t pos = 0;
  do
    {
      RawProfile p;
      uint64_t used = read_one (data + pos, size - pos, p);
      out.push_back (std::move (p));
      pos += static_cast<size_t> ((used + 7) & ~uint64_t (7));
    }
  while (pos + 8 <= size);
  if (pos < size && out.size () > 0)
    {
      // Trailing bytes shorter than a header: tolerated only as padding.
      for (size_t k = pos; k < size; k++)
        if (data[k] != 0)
          throw FormatError (format ("%zu stray bytes after the last profile",
                                     size - pos));
    }
  return out;
}

} // namespace memprof

namespace memprof {

// "SIGTERM" for 15, "signal 77" for a number without a name.
static std::string
signal_name (int sig)
{
  const char *abbrev = sig > 0 ? sigabbrev_np (sig) : nullptr;
  return abbrev ? std::string ("SIG") + abbrev : format ("signal %d", sig);
}

std::string
written_at_word (uint64_t written_at, std::string *signal)
{
  signal->clear ();
  int sig = (int) ((written_at >> 8) & 0xff);
  switch (written_at & 0xff)
    {
    case MEMPROF_WRITTEN_AT_EXIT:
      return "exit";
    case MEMPROF_WRITTEN_AT_EXEC:
      return "exec";
    case MEMPROF_WRITTEN_AT_SIGNAL:
      *signal = signal_name (sig);
      return "signal";
    case MEMPROF_WRITTEN_AT_QUICK_EXIT:
      return "_exit";
    case MEMPROF_WRITTEN_AT_REQUEST:
      return "request";
    case MEMPROF_WRITTEN_AT_DUMP_SIGNAL:
      *signal = signal_name (sig);
      return "dump_signal";
    }
  return "";
}

std::string
written_at_text (uint64_t written_at)
{
  std::string signal;
  std::string word = written_at_word (written_at, &signal);
  if (word == "exit")
    return "at exit";
  if (word == "exec")
    return "at exec (the process went on as another program)";
  if (word == "signal")
    return "at " + signal + ", which ended the process";
  if (word == "_exit")
    return "at _exit";
  if (word == "request")
    return "by __memprof_profile_dump (the process went on)";
  if (word == "dump_signal")
    return "at " + signal + ", the dump_signal (the process went on)";
  return "";
}

} // namespace memprof
