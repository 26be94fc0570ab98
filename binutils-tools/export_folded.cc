// Folded stacks: "outermost;...;innermost VALUE" per context.
#include "export_formats.h"

#include "frame_names.h"

namespace memprof {

bool
write_folded (FILE *out, const ContextTable &table,
              const std::vector<const Context *> &records, int field,
              const RunInfo &run)
{
  std::vector<std::string> names (table.num_frames ());
  for (const Context *c : records)
    {
      uint64_t value = c->fields[field];
      if (!value)
        continue;
      std::string line;
      for (size_t i = c->stack.size (); i-- > 0;)
        {
          uint32_t id = c->stack[i];
          if (names[id].empty ())
            {
              // ';' separates frames: none may stay inside a name.
              names[id] = frame_export_name (table.frame (id));
              for (char &ch : names[id])
                if (ch == ';')
                  ch = ':';
            }
          if (!line.empty ())
            line += ';';
          line += names[id];
        }
      if (line.empty ())
        line = "[unknown]";
      if (std::fprintf (out, "%s %llu\n", line.c_str (),
                        (unsigned long long) value) < 0)
        return false;
    }
  uint64_t unattributed = field == F_total_size    ? run.unattributed_bytes
                          : field == F_alloc_count ? run.unattributed_allocs
                                                   : 0;
  if (unattributed
      && std::fprintf (out, "%s %llu\n", kUnattributedFrame,
                       (unsigned long long) unattributed) < 0)
    return false;
  return !std::ferror (out);
}

} // namespace memprof
