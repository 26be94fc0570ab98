// Allocation contexts keyed by symbolized call stack.
#include "context_table.h"
#include "diag.h"

#include "diag.h"

#include <algorithm>
#include <new>
#include <tuple>

namespace memprof {

std::string
position_key (const Frame &f)
{
  std::string k;
  auto num = [&k] (uint64_t v) {
    k += std::to_string (v);
    k += '\x1f';
  };
  if (f.function.empty ())
    {
      k += '\x01';
      k += f.module;
      k += '\x1f';
      num (f.address);
      k += f.folded ? 'r' : '-';
      k += f.cut ? 'c' : '-';
      return k;
    }
  k += f.function;
  k += '\x1f';
  k += f.file;
  k += '\x1f';
  // Named from the symbol table alone in a library without debug info:
  // the call sites of one function tell apart by address only (pigz's
  // five calls of malloc in zlib's deflateInit2_ made one context).
  // The library by its name: one library, two paths (/lib, /usr/lib).
  if (f.file.empty () && shared_object (f.module))
    {
      k += f.module.substr (f.module.rfind ('/') + 1);
      k += '\x1f';
      num (f.address);
    }
  num (f.line);
  num (f.column);
  num (f.discriminator);
  k += f.inlined ? 'i' : 'n';
  k += f.folded ? 'r' : '-';
  k += f.cut ? 'c' : '-';
  return k;
}

bool
shared_object (const std::string &path)
{
  std::string base = path.substr (path.rfind ('/') + 1);
  size_t so = base.find (".so");
  return so != std::string::npos
         && (so + 3 == base.size () || base[so + 3] == '.');
}

size_t
StackHash::operator() (const Stack &s) const
{
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t id : s)
    {
      h ^= id;
      h *= 1099511628211ULL;
    }
  return static_cast<size_t> (h);
}

uint32_t
ContextTable::intern_frame (const Frame &f)
{
  std::string pos = position_key (f);
  std::string full = pos;
  full += '\x02';
  full += f.module;
  full += '\x1f';
  full += std::to_string (f.address);
  auto ins = frame_ids_.emplace (full, static_cast<uint32_t> (frames_.size ()));
  if (ins.second)
    {
      frames_.push_back (f);
      auto p = position_ids_.emplace (pos, position_ids_.size ());
      frame_position_.push_back (p.first->second);
    }
  else if (!frames_[ins.first->second].function_line)
    frames_[ins.first->second].function_line = f.function_line;
  return ins.first->second;
}

uint64_t
ContextTable::position_hash (const Stack &stack) const
{
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t id : stack)
    {
      h ^= frame_position_[id];
      h *= 1099511628211ULL;
    }
  // FNV's low bits are weak; the slot index uses them.
  h ^= h >> 32;
  h *= 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

bool
ContextTable::same_positions (const Stack &a, const Stack &b) const
{
  if (a.size () != b.size ())
    return false;
  for (size_t i = 0; i < a.size (); i++)
    if (a[i] != b[i] && frame_position_[a[i]] != frame_position_[b[i]])
      return false;
  return true;
}

void
ContextTable::grow ()
{
  size_t n = slots_.empty () ? 1024 : slots_.size () * 2;
  slots_.assign (n, 0);
  for (size_t i = 0; i < contexts_.size (); i++)
    {
      size_t k = context_hash_[i] & (n - 1);
      while (slots_[k])
        k = (k + 1) & (n - 1);
      slots_[k] = static_cast<uint32_t> (i + 1);
    }
}

void
add_histogram (std::vector<uint64_t> &into, const std::vector<uint64_t> &from)
{
  if (into.size () < from.size ())
    into.resize (from.size ());
  for (size_t i = 0; i < from.size (); i++)
    into[i] += from[i];
}

static const char *
mode_name (uint64_t granule)
{
  return granule == kHistogramSlotBytes ? "histogram mode (8-byte slots)"
                                        : "default mode (64-byte granules)";
}

void
ContextTable::note_access_granule (uint64_t bytes)
{
  if (bytes != kHistogramSlotBytes && bytes != kDefaultGranuleBytes)
    throw FormatError (format ("access counters of %llu bytes are not "
                               "supported (8 or 64)",
                               (unsigned long long) bytes));
  if (access_granule && access_granule != bytes)
    throw FormatError (format ("a profile in %s cannot be merged with "
                               "profiles in %s",
                               mode_name (bytes), mode_name (access_granule)));
  access_granule = bytes;
}

void
ContextTable::add (const Stack &stack, const FieldValues &fields,
                   uint64_t run, const std::vector<uint64_t> *histogram)
{
  // At most half full, so probes stay short.
  if (2 * (contexts_.size () + 1) > slots_.size ())
    grow ();
  uint64_t h = position_hash (stack);
  size_t mask = slots_.size () - 1;
  size_t k = h & mask;
  for (; slots_[k]; k = (k + 1) & mask)
    {
      size_t i = slots_[k] - 1;
      if (context_hash_[i] == h && same_positions (contexts_[i].stack, stack))
        break;
    }
  if (!slots_[k])
    {
      if (contexts_.size () >= UINT32_MAX)
        throw std::bad_alloc ();
      contexts_.push_back (Context{ stack, fields, run, {} });
      if (histogram)
        contexts_.back ().histogram = *histogram;
      context_hash_.push_back (h);
      slots_[k] = static_cast<uint32_t> (contexts_.size ());
      return;
    }
  Context &c = contexts_[slots_[k] - 1];
  if (run && c.run == run)
    merge_fields_one_run (c.fields, fields);
  else
    merge_fields (c.fields, fields);
  c.run = run;
  if (histogram)
    add_histogram (c.histogram, *histogram);
  // Same positions: keep the smaller (module, address) sequence.
  for (size_t i = 0; i < stack.size (); i++)
    {
      const Frame &a = frames_[stack[i]], &b = frames_[c.stack[i]];
      if (std::tie (a.module, a.address) != std::tie (b.module, b.address))
        {
          if (std::tie (a.module, a.address) < std::tie (b.module, b.address))
            c.stack = stack;
          break;
        }
    }
}

uint64_t
ContextTable::intern_type (const AllocatedType &t)
{
  std::string key = t.name;
  key += '\x1f';
  key += std::to_string (t.size);
  key += '\x1f';
  key += t.module;
  if (t.prefix)
    key += "\x1fprefix";
  if (t.offset)
    key += "\x1f+" + std::to_string (t.offset);
  auto ins = type_ids_.emplace (key, types_.size () + 1);
  if (ins.second)
    types_.push_back (t);
  return ins.first->second;
}

const AllocatedType *
ContextTable::context_type (const Context &c) const
{
  uint64_t id = c.fields[F_data_type_id];
  return id && id <= types_.size () ? &types_[id - 1] : nullptr;
}

void
ContextTable::merge_from (const ContextTable &other)
{
  if (other.num_profiles)
    note_sample_interval (other.sample_interval, other.site_calibrated);
  unattributed_allocs += other.unattributed_allocs;
  unattributed_bytes += other.unattributed_bytes;
  uninstrumented_profiles += other.uninstrumented_profiles;
  unsymbolized.insert (other.unsymbolized.begin (), other.unsymbolized.end ());
  for (const auto &p : other.programs)
    programs[p.first] += p.second;
  // A run the two tables both saw (its dumps read by two workers) is one.
  for (const auto &r : other.runs_seen)
    if (!runs_seen.insert (r).second)
      programs[std::get<0> (r)]--;
  if (other.access_granule)
    note_access_granule (other.access_granule);
  std::vector<uint32_t> map (other.frames_.size ());
  for (size_t i = 0; i < other.frames_.size (); i++)
    map[i] = intern_frame (other.frames_[i]);
  std::vector<uint64_t> type_map (other.types_.size () + 1, 0);
  for (size_t i = 0; i < other.types_.size (); i++)
    type_map[i + 1] = intern_type (other.types_[i]);
  Stack s;
  for (const Context &c : other.contexts_)
    {
      s.clear ();
      for (uint32_t id : c.stack)
        s.push_back (map[id]);
      FieldValues v = c.fields;
      uint64_t t = v[F_data_type_id];
      v[F_data_type_id] = t < type_map.size () ? type_map[t] : 0;
      add (s, v, 0, c.histogram.empty () ? nullptr : &c.histogram);
    }
  num_profiles += other.num_profiles;
  note_peak (other.peak);
  layouts.insert (other.layouts.begin (), other.layouts.end ());
}

namespace {

std::string
sampling_text (uint64_t interval)
{
  return interval ? "sampled with sample_interval="
                      + std::to_string (interval)
                  : std::string ("exact (not sampled)");
}

} // namespace

void
ContextTable::note_sample_interval (uint64_t interval, bool calibrated)
{
  // A sum of a sampled profile's estimates and an exact profile's counts
  // would be neither, and no one interval could describe it.
  if (num_profiles && interval != sample_interval)
    throw FormatError ("profile is " + sampling_text (interval)
                       + ", the profiles before it are "
                       + sampling_text (sample_interval)
                       + "; only profiles sampled alike merge");
  site_calibrated = interval && calibrated
                    && (!num_profiles || site_calibrated);
  sample_interval = interval;
}

void
ContextTable::note_peak (const Peak &p)
{
  if (p.known && (!peak.known || p.bytes > peak.bytes))
    peak = p;
}

static int
compare_frames (const Frame &a, const Frame &b)
{
  auto ta = std::tie (a.function, a.file, a.line, a.column, a.discriminator,
                      a.inlined, a.folded, a.cut, a.module, a.address);
  auto tb = std::tie (b.function, b.file, b.line, b.column, b.discriminator,
                      b.inlined, b.folded, b.cut, b.module, b.address);
  return ta < tb ? -1 : tb < ta ? 1 : 0;
}

std::vector<uint32_t>
ContextTable::frame_ranks () const
{
  // Distinct frames always differ in some compared member (they are
  // interned by all of them), so the ranks are distinct too.
  std::vector<uint32_t> order (frames_.size ());
  for (size_t i = 0; i < order.size (); i++)
    order[i] = static_cast<uint32_t> (i);
  std::sort (order.begin (), order.end (), [this] (uint32_t a, uint32_t b) {
    return compare_frames (frames_[a], frames_[b]) < 0;
  });
  std::vector<uint32_t> rank (frames_.size ());
  for (size_t i = 0; i < order.size (); i++)
    rank[order[i]] = static_cast<uint32_t> (i);
  return rank;
}

namespace {

// Sorting contexts by their stacks' frame ranks, two frames at a time
// (most significant first): each pass sorts plain 16-byte keys, and only
// runs that tie go on to the next two frames.  Comparing stacks through
// pointers instead took most of a million-context merge in cache misses.
struct SortItem
{
  uint64_t key;
  const Context *context;
};

class StackSorter
{
public:
  explicit StackSorter (const std::vector<uint32_t> &rank) : rank_ (rank) {}

  void sort (SortItem *first, SortItem *last, size_t depth) const
  {
    for (SortItem *p = first; p != last; p++)
      p->key = (uint64_t (rank_at (p->context->stack, depth)) << 32)
               | rank_at (p->context->stack, depth + 1);
    std::sort (first, last, [] (const SortItem &a, const SortItem &b) {
      return a.key < b.key;
    });
    for (SortItem *run = first; run != last;)
      {
        SortItem *end = run + 1;
        while (end != last && end->key == run->key)
          end++;
        // Equal keys with both frames present: the stacks go on.
        if (end - run > 1 && (run->key & 0xffffffff) != 0)
          sort (run, end, depth + 2);
        run = end;
      }
  }

private:
  const std::vector<uint32_t> &rank_;

  // 0 past the end, so a shorter stack sorts first.
  uint32_t rank_at (const Stack &s, size_t i) const
  {
    return i < s.size () ? rank_[s[i]] + 1 : 0;
  }
};

} // namespace

std::vector<const Context *>
ContextTable::canonical_order () const
{
  std::vector<SortItem> items (contexts_.size ());
  for (size_t i = 0; i < contexts_.size (); i++)
    items[i].context = &contexts_[i];
  std::vector<uint32_t> rank = frame_ranks ();
  StackSorter (rank).sort (items.data (), items.data () + items.size (), 0);
  std::vector<const Context *> v (items.size ());
  for (size_t i = 0; i < items.size (); i++)
    v[i] = items[i].context;
  return v;
}

} // namespace memprof
