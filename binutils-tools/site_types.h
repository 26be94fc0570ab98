// The allocation-site type table of one module (memprof/type_table.h):
// parsed from the module's .memprof.types section and looked up by a
// symbolized frame.  The join rule for a stack (innermost frame with a
// record decides) is the caller's: see add_raw_profile.
#ifndef MEMPROF_TOOLS_SITE_TYPES_H
#define MEMPROF_TOOLS_SITE_TYPES_H

#include "context_table.h"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace memprof {

// One call site's record: NAME empty when the type is unknown.
struct SiteType
{
  std::string function;         // Without a clone suffix (".constprop.0").
  std::string demangled;        // FUNCTION demangled, "" unless mangled.
  std::string file;             // Lexically normalized.
  std::string name;
  uint64_t size = 0;
  // The type is the header of larger blocks, not their element (the
  // plugin's prefix record: the size was no multiple of the type's).
  bool prefix = false;
};

class SiteTypes
{
public:
  // Parse the section's bytes; records that do not parse are skipped
  // (the table is a hint: a damaged one must not stop a report).
  void parse (const char *data, size_t size);
  size_t size () const { return num_records_; }

  // The record for the call at F's position, or null when there is none.
  // Records at F's line and column in a file of the same name are
  // candidates; those of F's function (one template instance of many)
  // decide, else all of them (a frame of a function without a linkage
  // name, named from its scopes, is compared with the records'
  // demangled names); candidates that disagree make the type
  // unknown (a record with an empty name).
  const SiteType *lookup (const Frame &f) const;

  // The offset record's bytes for the call at F's position (the call's
  // function returns its block that far past the start), or 0; records
  // of other functions at the position count only when F's has none,
  // and disagreeing ones give 0.
  uint64_t header_bytes (const Frame &f) const;

private:
  // The records at F's position that lookup weighs: those of F's
  // function (and file, when that tells apart), else all.
  static std::vector<const SiteType *> candidates (
      const std::vector<SiteType> &all, const Frame &f);

  std::unordered_map<std::string, std::vector<SiteType>> by_position_;
  // Offset records, by position as BY_POSITION_ (name empty, size the
  // bytes).
  std::unordered_map<std::string, std::vector<SiteType>> offsets_;
  size_t num_records_ = 0;
  SiteType unknown_;
};

// NAME without the suffix GCC gives clones and LTO-private copies
// ("f.constprop.0", "f.lto_priv.0" -> "f"): the DWARF names the original.
std::string function_base_name (const std::string &name);

// PATH with "." and "dir/.." components removed (no file system access).
std::string normalize_path (const std::string &path);

} // namespace memprof

#endif
