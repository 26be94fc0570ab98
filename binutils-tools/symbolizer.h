// Offline symbolization of raw-profile PCs with libdw: each module of a
// profile is opened from the path the profile recorded (or a --binary
// given instead), its build id checked, and every PC turned into its
// inline chain of frames (function, file, line, column, discriminator).
// Modules and their per-address results are cached across profiles, so
// many runs of one program symbolize each address once.  Thread-safe.
#ifndef MEMPROF_TOOLS_SYMBOLIZER_H
#define MEMPROF_TOOLS_SYMBOLIZER_H

#include "context_table.h"
#include "raw_reader.h"
#include "site_types.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

typedef struct Dwarf Dwarf;

namespace memprof {

struct SymbolizerOptions
{
  std::vector<std::string> binaries;        // --binary
  std::vector<std::string> debug_dirs;      // --debug-file-directory
};

// Why a module's frames stay unsymbolized.
struct ModuleProblem
{
  std::string module;           // Path the profile recorded.
  std::string message;
  bool is_executable = false;   // The profiled program itself.
  bool build_id_mismatch = false;
};

struct LoadedModule;

// The modules of one profile placed at their run-time addresses.
class ProfileMap
{
public:
  struct Range
  {
    uint64_t start, end, load_address;
    LoadedModule *module;       // Null when unusable.
    const std::string *path;
    size_t segment;             // Index in the profile's segments.
    uint64_t unload_generation; // 0: loaded at the dump.
  };
  // The modules loaded at the dump (sorted by start, disjoint), then
  // those closed before it (in file order; they may overlap anything).
  std::vector<Range> ranges;
  size_t num_loaded = 0;
  std::vector<std::string> paths;
  // The range holding PC for a stack of module GENERATION (raw_format.h).
  const Range *find (uint64_t pc, uint64_t generation = 0) const;
};

class Symbolizer
{
public:
  explicit Symbolizer (const SymbolizerOptions &opts);
  ~Symbolizer ();
  Symbolizer (const Symbolizer &) = delete;
  Symbolizer &operator= (const Symbolizer &) = delete;

  // Open the modules PROF's stacks use; problems with any of them (file
  // missing, build id differs) are appended to PROBLEMS.
  std::unique_ptr<ProfileMap> map_profile (const RawProfile &prof,
                                           std::vector<ModuleProblem> &problems);

  // The frames of PC, in a stack of module GENERATION, innermost
  // (inlined) first, appended to OUT.
  void symbolize (const ProfileMap &map, uint64_t pc, uint64_t generation,
                  std::vector<Frame> &out);

  // The DWARF of the module the profile recorded as PATH: the file
  // symbolization opened for it (build id checked, --binary), else the
  // file at PATH (or a --binary of its name); null with PROBLEM saying
  // why.  BIAS is added to its addresses.  Not while another thread
  // symbolizes.
  Dwarf *module_dwarf (const std::string &path, uint64_t &bias,
                       std::string &problem);

  // The allocation-site type table (site_types.h) of the module holding
  // PC, read from the module's file the first time; null when the
  // module is unusable or its file has no table.
  const SiteTypes *site_types (const ProfileMap &map, uint64_t pc,
                               uint64_t generation);

private:
  LoadedModule *load (const std::string &recorded_path,
                      const std::string &build_id, ModuleProblem &problem);
  std::string choose_file (const std::string &recorded_path,
                           const std::string &build_id) const;

  SymbolizerOptions opts_;
  std::string debuginfo_path_;
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<LoadedModule>>
    modules_;
  // Build ids of the --binary files, read once.
  std::vector<std::pair<std::string, std::string>> binary_ids_;
};

} // namespace memprof

#endif
