// The merged profile in memory: allocation contexts keyed by their
// symbolized call stack.  Both memprof-merge and memprof-dump build one;
// the indexed writer serializes it and the indexed reader rebuilds it.
#ifndef MEMPROF_TOOLS_CONTEXT_TABLE_H
#define MEMPROF_TOOLS_CONTEXT_TABLE_H

#include "mib_fields.h"
#include "type_layout.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace memprof {

// One frame of a symbolized stack.  A frame with an empty FUNCTION could
// not be symbolized; it is then identified by MODULE and ADDRESS.
struct Frame
{
  std::string function;
  std::string file;
  uint64_t line = 0, column = 0, discriminator = 0;
  // The line FUNCTION starts at (DW_AT_decl_line), 0 when unknown: lets
  // the compiler match LINE relative to it (-fheapprof-use).
  uint64_t function_line = 0;
  bool inlined = false;
  // A recursion was folded into this frame (raw_format.h): it stands for
  // every later activation of its call site in the captured stack.
  bool folded = false;
  // The stack was cut after this frame at the runtime's stack_depth: the
  // callers further out were not recorded (raw_format.h).
  bool cut = false;
  std::string module;           // Path of the module holding the code.
  uint64_t address = 0;         // Link-time address inside MODULE.
};

// The type of the blocks a context allocates (the plugin's allocation-site
// table, site_types.h, joined with the stack): its name as the compiler
// printed it ("rec", "ns::Item<int>"), its size in bytes (the element's
// for arrays; 0 when incomplete) and the module whose table named it
// (the executable or shared library path the profile recorded; its DWARF
// describes the type's layout).
struct AllocatedType
{
  std::string name;
  uint64_t size = 0;
  std::string module;
  // At the start of larger blocks as their header, not as their element
  // (SiteType::prefix): blocks of it are not folded as arrays.
  bool prefix = false;
  // Bytes before the type in each block: the size header of an allocator
  // that returns its block past it (type_table.h's offset records).
  uint64_t offset = 0;
  bool operator== (const AllocatedType &o) const
  {
    return name == o.name && size == o.size && module == o.module
           && prefix == o.prefix && offset == o.offset;
  }
};

// Identity of a frame for merging contexts: the source position when
// symbolized (so rebuilt binaries still merge), module and address
// otherwise; a frame named from the symbol table alone (no line) in a
// shared object also by the library's name and the address, since its
// call sites differ by address only (an executable's, _start, stays
// one across rebuilds).
std::string position_key (const Frame &f);

// Whether PATH names a shared object: its base name has ".so" at its end
// or before a version ("libc.so.6").
bool shared_object (const std::string &path);

using Stack = std::vector<uint32_t>;    // Frame ids, innermost first.

struct StackHash
{
  size_t operator() (const Stack &s) const;
};

// An allocation context is identified by the source positions of its
// stack; STACK's frames also carry module and address, those of the
// smallest address sequence seen (so any merge order gives the same).
struct Context
{
  Stack stack;
  FieldValues fields;
  uint64_t run = 0;   // The raw profile that added to it last (add's RUN).
  // Histogram profiles only (ContextTable::histogram_mode): slot I is
  // the accesses to bytes [I * kHistogramSlotBytes, (I + 1) *
  // kHistogramSlotBytes) from the start of the context's blocks, summed
  // over its blocks.  As long as the context's largest block's slots,
  // capped by the runtime (raw_format.h); empty when none was counted.
  std::vector<uint64_t> histogram;
};

// Bytes per histogram slot, and per counter in the default mode.
constexpr uint64_t kHistogramSlotBytes = 8;
constexpr uint64_t kDefaultGranuleBytes = 64;

// Add FROM's slots into INTO slot by slot (INTO grows to FROM's length).
void add_histogram (std::vector<uint64_t> &into,
                    const std::vector<uint64_t> &from);

class ContextTable
{
public:
  uint32_t intern_frame (const Frame &f);
  const Frame &frame (uint32_t id) const { return frames_[id]; }
  size_t num_frames () const { return frames_.size (); }

  // Add one record for STACK; a context with the same positions merges
  // its fields, this record being the later one.  RUN (from begin_run,
  // or 0) names the raw profile the record comes from: records of one
  // raw profile meeting in one context (two call instructions of one
  // source position, e.g. an unrolled loop's) merge their live-heap
  // fields by merge_fields_one_run.
  // HISTOGRAM, when given, is added to the context's (add_histogram).
  void add (const Stack &stack, const FieldValues &fields, uint64_t run = 0,
            const std::vector<uint64_t> *histogram = nullptr);
  uint64_t begin_run () { return ++last_run_; }
  // Merge all of OTHER (the later input) into this table.
  void merge_from (const ContextTable &other);

  const std::vector<Context> &contexts () const { return contexts_; }

  // Allocated types.  A context's fields[F_data_type_id] is 0 when its
  // type is unknown, else the id intern_type gave its type, which is the
  // type's index in types () plus one.  Ids are this table's own:
  // merge_from and the indexed reader remap them.
  uint64_t intern_type (const AllocatedType &t);
  const std::vector<AllocatedType> &types () const { return types_; }
  // The type of C's blocks, or null when unknown.
  const AllocatedType *context_type (const Context &c) const;

  // Contexts ordered canonically: by frame 0's function, then by stack.
  std::vector<const Context *> canonical_order () const;
  // Each frame's rank in the order of frames' contents (function, file,
  // line, column, discriminator, inlined, folded, module, address): stacks compare
  // lexicographically by their frames' ranks, no strings compared.
  std::vector<uint32_t> frame_ranks () const;

  // Raw profiles that went into this table (summed by merging).
  uint64_t num_profiles = 0;

  // Bytes one access counter of the profiles read covered: 0 before any
  // profile, kDefaultGranuleBytes, or kHistogramSlotBytes (histogram
  // mode: contexts carry histograms).  Profiles of both modes do not
  // mix: note_access_granule throws FormatError saying so.
  uint64_t access_granule = 0;
  bool histogram_mode () const
  {
    return access_granule == kHistogramSlotBytes;
  }
  void note_access_granule (uint64_t bytes);

  // The process's live heap peak (raw version 2 metadata): of several
  // profiles, the largest (a merged profile shows the largest peak of
  // its runs, as its "at peak" fields show each context's largest).
  struct Peak
  {
    bool known = false;
    uint64_t bytes = 0, blocks = 0, time = 0;   // TIME: ms of its run.
  } peak;
  void note_peak (const Peak &p);

  // The sampling interval of the profiles merged in (raw metadata
  // SAMPLE_INTERVAL, indexed SUMMARY_SAMPLE_INTERVAL), 0 when exact: a
  // sampled profile's fields are weighted estimates.  Profiles merge only
  // with profiles of the same interval: note_sample_interval throws
  // FormatError, naming both, when INTERVAL differs from that of the
  // profiles already in the table (call it before adding a profile).
  uint64_t sample_interval = 0;
  void note_sample_interval (uint64_t interval, bool calibrated = false);
  // Whether every sampled profile merged in was calibrated to exact
  // per-site totals (raw metadata SITE_CALIBRATED, indexed
  // SUMMARY_SITE_CALIBRATED): then each frame-0 site's alloc_count and
  // total_size sums are exact, sums of exact figures.
  bool site_calibrated = false;
  // Calibrated sampled profiles: allocations and bytes tallied at sites
  // where no sampled block was recorded, held by no context (raw
  // metadata UNATTRIBUTED_*, indexed SUMMARY_UNATTRIBUTED_*).
  uint64_t unattributed_allocs = 0, unattributed_bytes = 0;
  // Of the NUM_PROFILES runs, those with no instrumented code (raw
  // metadata UNINSTRUMENTED, indexed SUMMARY_UNINSTRUMENTED_PROFILES):
  // none of their accesses was counted.
  uint64_t uninstrumented_profiles = 0;
  // Modules whose frames were left unsymbolized, with why (memprof-merge's
  // warnings, kept in indexed profiles so that their reports say it).
  std::map<std::string, std::string> unsymbolized;
  // The executables of the raw profiles merged in, with how many runs
  // each (an indexed profile from before PROGRAMS has none): a process's
  // dumps (dump_signal, __memprof_profile_dump) are one run.
  std::map<std::string, uint64_t> programs;
  // The runs of the raw profiles added: executable, pid, start time.
  std::set<std::tuple<std::string, uint64_t, uint64_t>> runs_seen;

  // The layouts of the contexts' types (field_map.h reads them): found
  // in DWARF by memprof-merge, carried by indexed profiles.  Merging
  // keeps the first layout of a key.
  LayoutTable layouts;

private:
  std::vector<Frame> frames_;
  std::vector<uint32_t> frame_position_;    // Frame id -> position id.
  std::unordered_map<std::string, uint32_t> frame_ids_, position_ids_;
  std::vector<Context> contexts_;
  // Open-addressing set of contexts keyed by their position sequence:
  // slot = context index + 1, 0 = empty.  Holds no copy of the stacks.
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> context_hash_;
  uint64_t last_run_ = 0;
  std::vector<AllocatedType> types_;
  std::unordered_map<std::string, uint64_t> type_ids_;

  uint64_t position_hash (const Stack &stack) const;
  bool same_positions (const Stack &a, const Stack &b) const;
  void grow ();
};

} // namespace memprof

#endif
