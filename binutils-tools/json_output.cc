// The --json document of memprof-dump.
#include "json_output.h"

#include "byte_cursor.h"
#include "diag.h"

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

void
write_json (FILE *out, const char *kind, uint64_t version,
            const ContextTable &table,
            const std::vector<const Context *> &records)
{
  std::fprintf (out, "{\"kind\": \"%s\", \"version\": %llu, \"records\": [",
                kind, (unsigned long long) version);
  bool first_record = true;
  for (const Context *c : records)
    {
      std::fprintf (out, "%s\n  {\"stack\": [", first_record ? "" : ",");
      first_record = false;
      bool first_frame = true;
      for (uint32_t id : c->stack)
        {
          const Frame &f = table.frame (id);
          std::fprintf (out,
                        "%s\n    {\"function\": %s, \"file\": %s, "
                        "\"line\": %llu, \"column\": %llu, "
                        "\"discriminator\": %llu, \"inlined\": %s, "
                        "\"module\": %s, \"address\": \"0x%llx\"}",
                        first_frame ? "" : ",",
                        json_string (f.function).c_str (),
                        json_string (f.file).c_str (),
                        (unsigned long long) f.line,
                        (unsigned long long) f.column,
                        (unsigned long long) f.discriminator,
                        f.inlined ? "true" : "false",
                        json_string (f.module).c_str (),
                        (unsigned long long) f.address);
          first_frame = false;
        }
      std::fprintf (out, "]");
      for (int i = 0; i < NUM_FIELDS; i++)
        std::fprintf (out, ",%s\"%s\": %llu", i % 4 == 0 ? "\n   " : " ",
                      kFields[i].name, (unsigned long long) c->fields[i]);
      std::fprintf (out, "}");
    }
  std::fprintf (out, "\n]}\n");
}

} // namespace memprof
