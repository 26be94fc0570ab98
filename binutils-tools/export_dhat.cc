// DHAT's JSON (dhatFileVersion 2, mode "heap"), as Valgrind's
// dh_view.html loads it.  One program point per context; its frames
// (innermost first, inlined frames included) index "ftbl", whose entry
// 0 is "[root]".  Times are milliseconds (tu "ms"; Mtu, a million of
// them, "ks").  DHAT's rb/wb are bytes read and written; we count
// accesses, not bytes, and do not tell reads from writes, so rb carries
// the access count and wb is 0 (documented in the manual).
#include "export_formats.h"

#include "diag.h"
#include "frame_names.h"
#include "json_output.h"
#include "mib_fields.h"

#include <algorithm>

namespace memprof {

namespace {

std::string
dhat_frame (const Frame &f)
{
  std::string s = format ("0x%llx: %s", (unsigned long long) f.address,
                          frame_export_name (f).c_str ());
  if (!f.file.empty ())
    {
      s += format (" (%s:%llu", f.file.c_str (), (unsigned long long) f.line);
      if (f.column)
        s += format (":%llu", (unsigned long long) f.column);
      s += ")";
    }
  else if (!f.function.empty () && !f.module.empty ())
    s += " (in " + f.module + ")";
  return s;
}

} // namespace

bool
write_dhat (FILE *out, const ContextTable &table,
            const std::vector<const Context *> &records, const RunInfo &run)
{
  // The end time: the run's duration, or when unknown (an indexed
  // profile) the latest time a record saw; never 0 (the viewer divides
  // by it).
  uint64_t te = run.duration_ms;
  for (const Context *c : records)
    te = std::max ({ te, c->fields[F_alloc_timestamp],
                     c->fields[F_dealloc_timestamp] });
  te = std::max<uint64_t> (te, 1);
  std::string o;
  o += "{\"dhatFileVersion\": 2, \"mode\": \"heap\", \"verb\": "
       "\"Allocated\", \"bklt\": true, \"bkacc\": true, \"tu\": \"ms\", "
       "\"Mtu\": \"ks\", \"tuth\": 1,\n";
  o += " \"cmd\": " + json_string (run.command) + ", \"pid\": "
       + std::to_string (run.pid) + ", \"te\": " + std::to_string (te)
       + ", \"tg\": " + std::to_string (table.peak.time) + ",\n";
  o += " \"pps\": [";
  std::vector<uint64_t> ftbl_id (table.num_frames (), 0);
  std::vector<uint32_t> ftbl_frames;
  bool first = true;
  for (const Context *c : records)
    {
      const FieldValues &v = c->fields;
      o += first ? "\n  " : ",\n  ";
      first = false;
      o += format ("{\"tb\": %llu, \"tbk\": %llu, \"tl\": %llu, "
                   "\"mb\": %llu, \"mbk\": %llu, \"gb\": %llu, "
                   "\"gbk\": %llu, \"eb\": %llu, \"ebk\": %llu, "
                   "\"rb\": %llu, \"wb\": 0, \"fs\": [",
                   (unsigned long long) v[F_total_size],
                   (unsigned long long) v[F_alloc_count],
                   (unsigned long long) v[F_total_lifetime],
                   (unsigned long long) v[F_max_live_bytes],
                   (unsigned long long) v[F_max_live_blocks],
                   (unsigned long long) v[F_bytes_at_peak],
                   (unsigned long long) v[F_blocks_at_peak],
                   (unsigned long long) v[F_bytes_at_exit],
                   (unsigned long long) v[F_blocks_at_exit],
                   (unsigned long long) v[F_total_access_count]);
      for (size_t i = 0; i < c->stack.size (); i++)
        {
          uint32_t id = c->stack[i];
          if (!ftbl_id[id])
            {
              ftbl_frames.push_back (id);
              ftbl_id[id] = ftbl_frames.size ();
            }
          o += (i ? ", " : "") + std::to_string (ftbl_id[id]);
        }
      o += "]}";
      if (o.size () > (1 << 16))
        {
          if (std::fwrite (o.data (), 1, o.size (), out) != o.size ())
            return false;
          o.clear ();
        }
    }
  // The unattributed allocations: a program point of their own, whose
  // one frame comes last in the table.
  bool unattributed = run.unattributed_allocs || run.unattributed_bytes;
  if (unattributed)
    o += format ("%s{\"tb\": %llu, \"tbk\": %llu, \"tl\": 0, \"mb\": 0, "
                 "\"mbk\": 0, \"gb\": 0, \"gbk\": 0, \"eb\": 0, "
                 "\"ebk\": 0, \"rb\": 0, \"wb\": 0, \"fs\": [%zu]}",
                 first ? "\n  " : ",\n  ",
                 (unsigned long long) run.unattributed_bytes,
                 (unsigned long long) run.unattributed_allocs,
                 ftbl_frames.size () + 1);
  o += "\n ],\n \"ftbl\": [\n  \"[root]\"";
  for (uint32_t id : ftbl_frames)
    o += ",\n  " + json_string (dhat_frame (table.frame (id)));
  if (unattributed)
    o += ",\n  " + json_string (kUnattributedFrame);
  o += "\n ]\n}\n";
  return std::fwrite (o.data (), 1, o.size (), out) == o.size ()
         && !std::ferror (out);
}

} // namespace memprof
