// Loading raw or indexed inputs into a ContextTable.
#include "profile_input.h"

#include "diag.h"
#include "indexed_reader.h"

#include <unordered_map>

namespace memprof {

InputKind
detect_kind (const std::vector<uint8_t> &bytes)
{
  if (looks_like_raw (bytes.data (), bytes.size ()))
    return InputKind::RAW;
  if (looks_like_indexed (bytes.data (), bytes.size ()))
    return InputKind::INDEXED;
  if (bytes.empty ())
    throw FormatError ("empty file, not a memprof profile");
  throw FormatError ("not a memprof profile (bad magic)");
}

void
add_raw_profile (const RawProfile &prof, Symbolizer &sym, ContextTable &table,
                 std::vector<ModuleProblem> &problems)
{
  std::unique_ptr<ProfileMap> map = sym.map_profile (prof, problems);
  std::unordered_map<uint64_t, Stack> stacks;
  // Stacks share most PCs: symbolize and intern each PC's frames once.
  std::unordered_map<uint64_t, Stack> pc_frames;
  std::vector<Frame> frames;
  for (const RawMib &m : prof.mibs)
    {
      auto it = stacks.find (m.stack_id);
      if (it == stacks.end ())
        {
          Stack s;
          for (uint64_t pc : prof.stacks.at (m.stack_id))
            {
              auto p = pc_frames.find (pc);
              if (p == pc_frames.end ())
                {
                  frames.clear ();
                  sym.symbolize (*map, pc, frames);
                  Stack ids;
                  for (const Frame &f : frames)
                    ids.push_back (table.intern_frame (f));
                  p = pc_frames.emplace (pc, std::move (ids)).first;
                }
              s.insert (s.end (), p->second.begin (), p->second.end ());
            }
          it = stacks.emplace (m.stack_id, std::move (s)).first;
        }
      table.add (it->second, m.fields);
    }
  table.num_profiles++;
}

} // namespace memprof
