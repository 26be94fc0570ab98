// The --json document of memprof-dump.
#include "json_output.h"

#include "byte_cursor.h"
#include "diag.h"
#include "field_report.h"
#include "raw_reader.h"

#include <cstring>
#include <memory>

namespace memprof {

// Length of the valid UTF-8 sequence starting at P (N bytes left), or 0.
static size_t
utf8_sequence (const uint8_t *p, size_t n)
{
  size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2
                                 : (p[0] & 0xf0) == 0xe0 ? 3
                                 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
  return len && len <= n && valid_utf8 (p, len) ? len : 0;
}

std::string
json_string (const std::string &s)
{
  std::string out = "\"";
  const uint8_t *p = reinterpret_cast<const uint8_t *> (s.data ());
  for (size_t i = 0; i < s.size (); i++)
    {
      unsigned char c = p[i];
      if (c >= 0x80)
        {
          // Names from debug info are not checked on the way in: a byte
          // that is not UTF-8 becomes U+FFFD so the document stays JSON.
          size_t len = utf8_sequence (p + i, s.size () - i);
          if (len)
            out.append (s, i, len), i += len - 1;
          else
            out += "\\ufffd";
          continue;
        }
      switch (c)
        {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
          if (c < 0x20)
            out += format ("\\u%04x", c);
          else
            out += static_cast<char> (c);
        }
    }
  return out + "\"";
}

namespace {

// The document is built in a buffer written out in large pieces: a
// million contexts make gigabytes, and stdio's per-call cost showed.
class JsonBuffer
{
public:
  explicit JsonBuffer (FILE *out) : out_ (out), buf_ (new char[kSize]) {}

  void add (const char *s, size_t n)
  {
    if (n > kSize - used_ && !flush ())
      return;
    if (n > kSize)
      {
        ok_ = std::fwrite (s, 1, n, out_) == n;
        return;
      }
    std::memcpy (buf_.get () + used_, s, n);
    used_ += n;
  }
  void add (const char *s) { add (s, std::strlen (s)); }
  void add (const std::string &s) { add (s.data (), s.size ()); }
  void add (uint64_t v)
  {
    char digits[20];
    int n = 20;
    do
      digits[--n] = static_cast<char> ('0' + v % 10);
    while ((v /= 10) != 0);
    add (digits + n, 20 - n);
  }

  // False once a write failed (errno says why); nothing more is written.
  bool ok () const { return ok_; }
  bool flush ()
  {
    if (ok_ && used_ && std::fwrite (buf_.get (), 1, used_, out_) != used_)
      ok_ = false;
    used_ = 0;
    return ok_;
  }

private:
  static constexpr size_t kSize = 1 << 20;
  FILE *out_;
  std::unique_ptr<char[]> buf_;
  size_t used_ = 0;
  bool ok_ = true;
};

} // namespace

std::string
frame_json (const Frame &f)
{
  return format ("{\"function\": %s, \"file\": %s, \"line\": %llu, "
                 "\"column\": %llu, \"discriminator\": %llu, "
                 "\"inlined\": %s, \"folded\": %s, \"cut\": %s, "
                 "\"module\": %s, \"address\": \"0x%llx\"}",
                 json_string (f.function).c_str (),
                 json_string (f.file).c_str (), (unsigned long long) f.line,
                 (unsigned long long) f.column,
                 (unsigned long long) f.discriminator,
                 f.inlined ? "true" : "false", f.folded ? "true" : "false",
                 f.cut ? "true" : "false",
                 json_string (f.module).c_str (),
                 (unsigned long long) f.address);
}


bool
write_json (FILE *out, const char *kind, uint64_t version,
            const ContextTable &table,
            const std::vector<const Context *> &records, const RunInfo *run)
{
  JsonBuffer b (out);
  b.add ("{\"kind\": \"");
  b.add (kind);
  b.add ("\", \"version\": ");
  b.add (version);
  if (run)
    b.add (format (", \"command\": %s, \"executable\": %s, \"dump\": %llu%s, "
                   "\"pid\": %llu%s, \"run_time_ms\": %llu",
                   json_string (run->command).c_str (),
                   json_string (run->executable).c_str (),
                   (unsigned long long) run->dump_sequence,
                   run->runtime_version.empty ()
                     ? ""
                     : (", \"runtime\": "
                        + json_string (run->runtime_version)).c_str (),
                   (unsigned long long) run->pid,
                   run->parent_pid
                     ? format (", \"parent_pid\": %llu",
                               (unsigned long long) run->parent_pid).c_str ()
                     : "",
                   (unsigned long long) run->duration_ms));
  std::string signal;
  std::string written = run ? written_at_word (run->written_at, &signal)
                            : std::string ();
  if (!written.empty ())
    b.add (format (", \"written_at\": %s%s", json_string (written).c_str (),
                   signal.empty ()
                     ? ""
                     : (", \"signal\": " + json_string (signal)).c_str ()));
  // An indexed profile's programs and the modules its merge left
  // unsymbolized (a raw profile names its run above).
  if (!run && !table.programs.empty ())
    {
      b.add (", \"programs\": [");
      bool first = true;
      for (const auto &p : table.programs)
        {
          b.add (format ("%s{\"path\": %s, \"runs\": %llu}",
                         first ? "" : ", ", json_string (p.first).c_str (),
                         (unsigned long long) p.second));
          first = false;
        }
      b.add ("]");
    }
  if (!table.unsymbolized.empty ())
    {
      b.add (", \"unsymbolized\": [");
      bool first = true;
      for (const auto &m : table.unsymbolized)
        {
          b.add (format ("%s{\"module\": %s, \"reason\": %s}",
                         first ? "" : ", ", json_string (m.first).c_str (),
                         json_string (m.second).c_str ()));
          first = false;
        }
      b.add ("]");
    }
  if (table.sample_interval)
    b.add (format (", \"sample_interval\": %llu, \"estimates\": true, "
                   "\"site_totals_exact\": %s",
                   (unsigned long long) table.sample_interval,
                   table.site_calibrated ? "true" : "false"));
  if (table.uninstrumented_profiles)
    b.add (format (", \"uninstrumented_runs\": %llu",
                   (unsigned long long) table.uninstrumented_profiles));
  if (table.sample_interval)
    b.add (format (", \"unattributed\": {\"allocations\": %llu, "
                   "\"bytes\": %llu}",
                   (unsigned long long) table.unattributed_allocs,
                   (unsigned long long) table.unattributed_bytes));
  if (table.peak.known)
    b.add (format (", \"peak\": {\"bytes\": %llu, \"blocks\": %llu, "
                   "\"time_ms\": %llu}",
                   (unsigned long long) table.peak.bytes,
                   (unsigned long long) table.peak.blocks,
                   (unsigned long long) table.peak.time));
  // Only histogram profiles say so: other documents are unchanged.
  bool histograms = table.histogram_mode ();
  if (histograms)
    b.add (format (", \"histogram_mode\": true, \"histogram_slot_bytes\": "
                   "%llu",
                   (unsigned long long) kHistogramSlotBytes));
  b.add (", \"records\": [");
  // Each frame's text once: contexts share frames.
  std::vector<std::string> frame_text (table.num_frames ());
  std::string field_key[NUM_FIELDS];
  for (int i = 0; i < NUM_FIELDS; i++)
    field_key[i] = std::string (i % 4 == 0 ? ",\n   \"" : ", \"")
                   + kFields[i].name + "\": ";
  bool first_record = true;
  for (const Context *c : records)
    {
      b.add (first_record ? "\n  {\"stack\": [" : ",\n  {\"stack\": [");
      first_record = false;
      bool first_frame = true;
      for (uint32_t id : c->stack)
        {
          if (frame_text[id].empty ())
            frame_text[id] = frame_json (table.frame (id));
          b.add (first_frame ? "\n    " : ",\n    ");
          b.add (frame_text[id]);
          first_frame = false;
        }
      b.add ("]");
      const AllocatedType *t = table.context_type (*c);
      b.add (t ? format (",\n   \"type\": {\"name\": %s, \"size\": %llu, "
                         "\"module\": %s, \"header\": %s, \"offset\": %llu}",
                         json_string (t->name).c_str (),
                         (unsigned long long) t->size,
                         json_string (t->module).c_str (),
                         t->prefix ? "true" : "false",
                         (unsigned long long) t->offset)
               : std::string (",\n   \"type\": null"));
      for (int i = 0; i < NUM_FIELDS; i++)
        {
          b.add (field_key[i]);
          b.add (c->fields[i]);
        }
      if (histograms)
        {
          b.add (",\n   \"histogram\": [");
          for (size_t i = 0; i < c->histogram.size (); i++)
            {
              if (i)
                b.add (", ");
              b.add (c->histogram[i]);
            }
          b.add ("]");
          // The histogram mapped onto the type's fields (field_map.h).
          b.add (",\n   \"fields\": ");
          b.add (context_fields_json (table, *c));
        }
      b.add ("}");
      if (!b.ok ())
        return false;
    }
  b.add ("\n]}\n");
  return b.flush ();
}

} // namespace memprof
