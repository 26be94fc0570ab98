// memprof-dump --function=NAME: which contexts NAME allocated directly.
// Shared by the report's ordering and the indexed reader, which reads
// only the records this may select.
#ifndef MEMPROF_TOOLS_FUNCTION_FILTER_H
#define MEMPROF_TOOLS_FUNCTION_FILTER_H

#include "context_table.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace memprof {

class FunctionFilter
{
public:
  // ALLOCATORS: functions taken as part of the allocator (--allocator):
  // a program's own allocation wrappers, passed over like the standard
  // library's frames.
  explicit FunctionFilter (const std::string &name,
                           const std::vector<std::string> &allocators = {})
    : name_ (name), allocators_ (allocators)
  {
  }

  const std::string &name () const { return name_; }
  bool has_allocators () const { return !allocators_.empty (); }

  // Whether STACK's allocation was made by NAME's code: frame 0 is
  // NAME, or the frames from 0 out up to NAME are the C++ standard
  // library's (a std::vector's growth, inlined or in libstdc++.so), the
  // ALLOCATORS, or functions inlined into the next frame out (the call
  // instruction is NAME's, as a wrapper inlined into it).
  bool selects (const ContextTable &table, const Stack &stack);

  // Whether FUNCTION is NAME (function_name_matches, remembered: it
  // demangles).
  bool matches (const std::string &function)
  {
    return verdict (function) == kName;
  }

  // Whether FUNCTION is passed over on the way out: the C++ standard
  // library's or one of the ALLOCATORS.
  bool passes_over (const std::string &function)
  {
    return verdict (function) == kLibrary;
  }

private:
  enum Verdict { kOther, kName, kLibrary };
  Verdict verdict (const std::string &function);

  std::string name_;
  std::vector<std::string> allocators_;
  std::unordered_map<std::string, Verdict> verdicts_;
};

} // namespace memprof

#endif
