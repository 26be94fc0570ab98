// Loading raw or indexed inputs into a ContextTable.
#include "profile_input.h"

#include "diag.h"
#include "demangle.h"
#include "indexed_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <map>
#include <unistd.h>
#include <unordered_map>

namespace memprof {

InputKind
detect_kind (const uint8_t *data, size_t size)
{
  if (looks_like_raw (data, size))
    return InputKind::RAW;
  if (looks_like_indexed (data, size))
    return InputKind::INDEXED;
  if (size == 0)
    throw FormatError ("empty file, not a memprof profile");
  throw FormatError ("not a memprof profile (bad magic)");
}

// Read up to N bytes into BUF, stopping early only at the end of input.
static size_t
read_up_to (int fd, uint8_t *buf, size_t n)
{
  size_t done = 0;
  while (done < n)
    {
      ssize_t r = read (fd, buf + done, n - done);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        throw FormatError (std::strerror (errno));
      if (r == 0)
        break;
      done += static_cast<size_t> (r);
    }
  return done;
}

namespace {
struct Fd
{
  int fd;
  ~Fd () { close (fd); }
};
} // namespace

ProfileBytes::ProfileBytes (const std::string &path)
{
  Fd f{ open (path.c_str (), O_RDONLY | O_CLOEXEC) };
  if (f.fd < 0)
    throw FormatError (std::strerror (errno));
  struct stat st;
  if (fstat (f.fd, &st) != 0)
    throw FormatError (std::strerror (errno));
  if (S_ISDIR (st.st_mode))
    throw FormatError ("is a directory");
  // The magic first: a large file that is no profile is never read.
  uint8_t head[8];
  size_t got = read_up_to (f.fd, head, sizeof head);
  kind_ = detect_kind (head, got);
  if (S_ISREG (st.st_mode))
    {
      size_ = static_cast<size_t> (st.st_size);
      void *p = mmap (nullptr, size_, PROT_READ, MAP_PRIVATE, f.fd, 0);
      if (p == MAP_FAILED)
        throw FormatError (std::strerror (errno));
      madvise (p, size_, MADV_SEQUENTIAL);
      data_ = static_cast<const uint8_t *> (p);
      mapped_ = true;
      return;
    }
  read_.assign (head, head + got);
  for (;;)
    {
      size_t old = read_.size ();
      size_t want = old < (1u << 20) ? (1u << 20) : old;
      read_.resize (old + want);
      size_t n = read_up_to (f.fd, read_.data () + old, want);
      read_.resize (old + n);
      if (n < want)
        break;
    }
  read_.shrink_to_fit ();
  data_ = read_.data ();
  size_ = read_.size ();
}

ProfileBytes::~ProfileBytes ()
{
  if (mapped_)
    munmap (const_cast<uint8_t *> (data_), size_);
}

// The type the allocation-site tables give the frames of one PC (its
// inline chain, innermost first): -1 when no frame has a record, 0 when
// the first that has one says unknown, else the type's data_type_id.
// *HEADER: the offset records' bytes of the frames passed on the way
// (allocators returning their blocks past a size header).
// A record describes the block its call returned; a constructor returns
// none, so the walk out stops at one (0): in new T (args) the
// constructor's call shares the new-expression's position, and T's
// record would type every block T's constructor allocates.
static int64_t
site_type (Symbolizer &sym, const ProfileMap &map, uint64_t pc,
           uint64_t generation, const std::vector<Frame> &frames,
           ContextTable &table, uint64_t *header)
{
  *header = 0;
  const SiteTypes *types = sym.site_types (map, pc, generation);
  if (!types)
    return -1;
  for (size_t i = 0; i < frames.size (); i++)
    if (i > 0 && constructor_name (frames[i - 1].function))
      return 0;
    else if (const SiteType *t = types->lookup (frames[i]))
      {
        const Frame &f = frames[i];
        if (t->name.empty ())
          return 0;
        AllocatedType a;
        a.name = t->name;
        a.size = t->size;
        a.module = f.module;
        a.prefix = t->prefix;
        return (int64_t) table.intern_type (a);
      }
    else
      *header += types->header_bytes (frames[i]);
  return -1;
}

void
add_raw_profile (const RawProfile &prof, Symbolizer &sym, ContextTable &table,
                 std::vector<ModuleProblem> &problems)
{
  table.note_access_granule (prof.access_granule);
  table.note_sample_interval (prof.sample_interval, prof.site_calibrated);
  table.unattributed_allocs += prof.unattributed_allocs;
  table.unattributed_bytes += prof.unattributed_bytes;
  table.uninstrumented_profiles += prof.uninstrumented;
  std::unique_ptr<ProfileMap> map = sym.map_profile (prof, problems);
  // Stacks share most PCs: symbolize and intern each PC's frames once
  // (per PC and stack generation in a profile that kept closed modules,
  // where one PC may have been code of several modules).
  // Per PC: its frames' ids, and the type its frames' allocation-site
  // records give (-1: no record, 0: unknown, else a data_type_id).
  struct PcFrames
  {
    Stack ids;
    int64_t type = -1;
    uint64_t header = 0;                // Offset records passed.
    bool outer_constructor = false;     // Its outermost frame's function.
  };
  std::unordered_map<uint64_t, PcFrames> pc_frames;
  uint64_t run = table.begin_run ();
  std::map<std::pair<uint64_t, uint64_t>, PcFrames> pc_generation_frames;
  bool closed_modules = map->num_loaded < map->ranges.size ();
  std::vector<Frame> frames;
  Stack s;
  // Lifetimes come from the coarse clock (1-4 ms ticks), the run's
  // length from a fine one: a block of a 3 ms run read 4 ms (gawk's test
  // suite: 291 of 696 profiles).  No block outlives its run, in every
  // output alike.
  bool run_known = prof.start_time && prof.end_time >= prof.start_time;
  uint64_t run_ms = run_known ? prof.end_time - prof.start_time : 0;
  for (uint64_t i = 0; i < prof.mibs.size (); i++)
    {
      RawMib m = prof.mibs.at (i);
      if (run_known)
        {
          m.fields[F_max_lifetime] = std::min (m.fields[F_max_lifetime],
                                               run_ms);
          m.fields[F_min_lifetime] = std::min (m.fields[F_min_lifetime],
                                               run_ms);
          uint64_t bound;
          if (!__builtin_mul_overflow (m.fields[F_alloc_count], run_ms,
                                       &bound))
            m.fields[F_total_lifetime]
              = std::min (m.fields[F_total_lifetime], bound);
        }
      // The reader checked that every MIB's stack exists.
      const RawStacks::Entry &st = *prof.stacks.find (m.stack_id, i);
      s.clear ();
      int64_t type = -1;
      uint64_t header = 0;
      bool inner_constructor = false;
      for (uint64_t k = 0; k < st.frames; k++)
        {
          uint64_t pc = st.pc (k);
          bool folded = st.folded (k), cut = st.cut (k);
          // A folded or cut frame is a frame of its own: keyed with its
          // flags.
          uint64_t key = pc | (folded ? MEMPROF_RAW_PC_RECURSION_FOLDED : 0)
                         | (cut ? MEMPROF_RAW_PC_STACK_CUT : 0);
          PcFrames *ids;
          bool fresh;
          if (closed_modules)
            {
              auto p = pc_generation_frames.try_emplace ({ key, st.generation });
              ids = &p.first->second;
              fresh = p.second;
            }
          else
            {
              auto p = pc_frames.try_emplace (key);
              ids = &p.first->second;
              fresh = p.second;
            }
          if (fresh)
            {
              frames.clear ();
              sym.symbolize (*map, pc, st.generation, frames);
              // The innermost frame holds the recursive call itself.
              if (folded && !frames.empty ())
                frames.front ().folded = true;
              // The outermost frame is where the stack stops.
              if (cut && !frames.empty ())
                frames.back ().cut = true;
              for (const Frame &f : frames)
                ids->ids.push_back (table.intern_frame (f));
              ids->type = site_type (sym, *map, pc, st.generation, frames,
                                     table, &ids->header);
              ids->outer_constructor
                = !frames.empty ()
                  && constructor_name (frames.back ().function);
            }
          s.insert (s.end (), ids->ids.begin (), ids->ids.end ());
          // The innermost frame with an allocation-site record decides;
          // not past a constructor (site_type).
          if (type < 0 && inner_constructor)
            type = 0;
          else if (type < 0)
            {
              type = ids->type;
              header += ids->header;
            }
          inner_constructor = ids->outer_constructor;
        }
      // The type starts past the headers of the allocators it came
      // through.
      if (type > 0 && header)
        {
          AllocatedType a = table.types ()[type - 1];
          a.offset += header;
          type = (int64_t) table.intern_type (a);
        }
      m.fields[F_data_type_id] = type > 0 ? type : 0;
      auto hist = prof.histograms.find (m.stack_id);
      table.add (s, m.fields, run,
                 hist == prof.histograms.end () ? nullptr : &hist->second);
    }
  table.num_profiles++;
  // A run is a process image: its pid and start time (a process's
  // several dumps are one run; its exec starts another).
  uint64_t &runs = table.programs[prof.executable];
  if (!prof.pid
      || table.runs_seen.emplace (prof.executable, prof.pid, prof.start_time)
           .second)
    runs++;
  if (prof.has_peak)
    {
      ContextTable::Peak p;
      p.known = true;
      p.bytes = prof.peak_bytes;
      p.blocks = prof.peak_blocks;
      p.time = prof.peak_time;
      // The peak's time comes from the coarse clock (1-4 ms ticks), the
      // run's length from another: never later than the run's end, in
      // every output alike.
      if (prof.start_time && prof.end_time >= prof.start_time
          && p.time > prof.end_time - prof.start_time)
        p.time = prof.end_time - prof.start_time;
      table.note_peak (p);
    }
}

} // namespace memprof
