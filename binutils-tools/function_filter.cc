// memprof-dump --function=NAME (function_filter.h).
#include "function_filter.h"

#include "demangle.h"

namespace memprof {

FunctionFilter::Verdict
FunctionFilter::verdict (const std::string &function)
{
  auto it = verdicts_.find (function);
  if (it == verdicts_.end ())
    {
      Verdict v = function_name_matches (function, name_) ? kName
                  : library_function (function)           ? kLibrary
                                                          : kOther;
      for (const std::string &a : allocators_)
        if (v == kOther && function_name_matches (function, a))
          v = kLibrary;
      it = verdicts_.emplace (function, v).first;
    }
  return it->second;
}

bool
FunctionFilter::selects (const ContextTable &table, const Stack &stack)
{
  for (uint32_t id : stack)
    {
      const Frame &f = table.frame (id);
      switch (verdict (f.function))
        {
        case kName:
          return true;
        case kLibrary:
          break;
        case kOther:
          if (!f.inlined)
            return false;
          break;
        }
    }
  return false;
}

} // namespace memprof
