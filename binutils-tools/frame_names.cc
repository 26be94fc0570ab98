// Frame names for reports and exports.
#include "frame_names.h"

#include "diag.h"
#include "short_names.h"


namespace memprof {

std::string
frame_function_name (const Frame &f)
{
  if (!f.function.empty ())
    return demangle (f.function);
  return format ("0x%llx in %s", (unsigned long long) f.address,
                 f.module.empty () ? "an unknown module" : f.module.c_str ());
}

std::string
frame_marks (const Frame &f)
{
  std::string s = f.folded ? " [recursion folded]" : "";
  if (f.cut)
    s += " [stack cut here]";
  return s;
}

std::string
frame_export_name (const Frame &f)
{
  return frame_function_name (f) + frame_marks (f);
}

std::string
frame_text (const Frame &f)
{
  std::string s = f.function.empty () ? frame_function_name (f)
                                      : display_name (frame_function_name (f));
  std::string folded = frame_marks (f);
  if (f.function.empty ())
    return s + folded;
  if (!f.file.empty ())
    {
      s += format (" (%s:%llu", f.file.c_str (), (unsigned long long) f.line);
      if (f.column)
        s += format (":%llu", (unsigned long long) f.column);
      if (f.discriminator)
        s += format (" discriminator %llu",
                     (unsigned long long) f.discriminator);
      s += ")";
    }
  else if (!f.module.empty ())
    // No line: the address tells the function's call sites apart.
    s += format (" (in %s at 0x%llx)", f.module.c_str (),
                 (unsigned long long) f.address);
  if (f.inlined)
    s += " [inlined]";
  return s + folded;
}

} // namespace memprof
