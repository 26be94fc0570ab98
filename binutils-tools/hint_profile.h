// The indexed profile as the compiler uses it (-fheapprof-use): loaded
// once per compilation, then asked, for each allocation call the
// compiler sees, which contexts of the profile apply to it and whether
// they make the call cold, hot or neither.
//
// Built into the GCC plugin (which is compiled without exceptions): no
// exception leaves this interface; a bad profile is reported as a
// message.
#ifndef MEMPROF_TOOLS_HINT_PROFILE_H
#define MEMPROF_TOOLS_HINT_PROFILE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace memprof {

// One frame of an allocation call's inline stack as the compiler sees
// it: the innermost function first (the one whose code holds the call),
// then, for each inlined body, the function it was inlined into with the
// position of the inlined call.
struct CallFrame
{
  std::string function;         // Linkage name (DW_AT_linkage_name's).
  // The source file of LINE, compared by base name: tells apart the
  // functions of one name in different files (statics, anonymous
  // namespaces: their debug info names them without the file).
  std::string file;
  uint64_t function_line = 0;   // The function's start line (decl line).
  uint64_t line = 0, column = 0;
};

struct HintThresholds
{
  // Cold: average lifetime at least this share of the run (percent) and
  // at least COLD_MIN_LIFETIME_MS, and at most COLD_ACCESSES accesses per
  // byte over the whole lifetime.
  double cold_lifetime_percent = 50;
  double cold_min_lifetime_ms = 10;
  double cold_accesses = 2;
  // Hot: at least this many accesses per byte per second of lifetime.
  double hot_density = 1000;
};

enum class HeapClass { NONE, COLD, HOT, CONFLICT };

const char *heap_class_name (HeapClass c);

// What the profile says about one allocation call.
struct SiteVerdict
{
  unsigned contexts = 0;        // Contexts that matched.
  unsigned cold = 0, hot = 0;   // Of them, classified so.
  HeapClass verdict = HeapClass::NONE;
  // Over the matched contexts: blocks, average lifetime (ms), its share
  // of the run (percent), accesses per byte, and accesses per byte per
  // second of lifetime.
  uint64_t blocks = 0;
  double lifetime_ms = 0, lifetime_percent = 0;
  double accesses_per_byte = 0, density = 0;
};

// A leaf position of the profile (frame 0 of some context) that no call
// of a compiled function matched: for the stale-profile warnings.
struct UnmatchedLeaf
{
  std::string function, file;
  uint64_t line = 0, column = 0;
  int64_t line_offset = 0;      // LINE relative to the function's start.
  unsigned contexts = 0;
};

class HintProfile
{
public:
  HintProfile ();
  ~HintProfile ();

  // Load the indexed profile at PATH.  On failure returns false with
  // ERROR set to one line (without the path).
  bool load (const std::string &path, std::string &error) noexcept;

  // The profile records where functions start (FUNCTION_LINES section):
  // lines are matched relative to them; otherwise absolutely.
  bool has_function_lines () const noexcept;
  // The length of the profiled run in ms (the latest deallocation or
  // dump time of any context).
  uint64_t run_length_ms () const noexcept;
  size_t num_contexts () const noexcept;

  // The contexts whose innermost frames match STACK (innermost first),
  // classified by T.  Marks them matched.
  SiteVerdict match (const std::vector<CallFrame> &stack,
                     const HintThresholds &t) noexcept;

  // Leaf positions of FUNCTION (frame 0 not inlined) in a file of FILE's
  // base name that no match () hit.
  std::vector<UnmatchedLeaf>
  unmatched_leaves (const std::string &function,
                    const std::string &file) const noexcept;
  // Functions with contexts (frame 0 not inlined) whose frame 0 file
  // ends with FILE_SUFFIX (a path or a base name).
  std::vector<std::string>
  functions_in_file (const std::string &file) const noexcept;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace memprof

#endif
