// The TYPE_LAYOUTS section's writer and reader.
#include "layout_section.h"

#include "byte_cursor.h"
#include "diag.h"

namespace memprof {

namespace {

void
put_string (ByteWriter &w, const std::string &s)
{
  w.uleb (s.size ());
  w.raw (s.data (), s.size ());
}

std::string
get_string (ByteCursor &c, const char *what)
{
  uint64_t n = c.uleb (what);
  const uint8_t *p = c.bytes (n, what);
  if (!valid_utf8 (p, n))
    throw FormatError (format ("%s is not UTF-8", what));
  return std::string (reinterpret_cast<const char *> (p), n);
}

void
put_key (ByteWriter &w, const LayoutKey &key)
{
  put_string (w, std::get<0> (key));
  put_string (w, std::get<1> (key));
  w.uleb (std::get<2> (key));
}

} // namespace

void
write_layout_section (const LayoutTable &layouts, ByteWriter &w)
{
  w.uleb (layouts.size ());
  for (const auto &l : layouts)
    {
      put_key (w, l.first);
      w.uleb (l.second.fields.size ());
      for (const LayoutField &f : l.second.fields)
        {
          put_string (w, f.name);
          w.uleb (f.kind);
          w.uleb (f.offset);
          w.uleb (f.size);
          w.uleb (f.align);
          w.uleb (f.repeats.size ());
          for (const auto &r : f.repeats)
            {
              w.uleb (r.first);
              w.uleb (r.second);
            }
          put_string (w, f.detail);
        }
    }
}

void
read_layout_section (const uint8_t *data, size_t size, LayoutTable &layouts)
{
  const char *what = "type layout section";
  ByteCursor c (data, size);
  uint64_t n = c.count (c.uleb (what), 4, "type layout");
  for (uint64_t i = 0; i < n; i++)
    {
      TypeLayout l;
      std::string module = get_string (c, what);
      l.name = get_string (c, what);
      l.size = c.uleb (what);
      uint64_t nf = c.count (c.uleb (what), 8, "layout field");
      l.fields.resize (nf);
      for (LayoutField &f : l.fields)
        {
          f.name = get_string (c, what);
          uint64_t kind = c.uleb (what);
          if (kind > LayoutField::BITFIELD)
            throw FormatError (format ("%s: unknown field kind %llu", what,
                                       (unsigned long long) kind));
          f.kind = static_cast<LayoutField::Kind> (kind);
          f.offset = c.uleb (what);
          f.size = c.uleb (what);
          f.align = c.uleb (what);
          uint64_t nr = c.count (c.uleb (what), 2, "layout repeat");
          // Every repetition lies inside the type (so a hostile count
          // cannot drive a huge loop): END is the last one's end.
          uint64_t end = f.offset + f.size;
          bool inside = end >= f.offset && end <= l.size;
          for (uint64_t k = 0; k < nr && inside; k++)
            {
              uint64_t stride = c.uleb (what), count = c.uleb (what);
              inside = stride > 0 && count > 0
                       && count - 1 <= (l.size - end) / stride;
              if (inside)
                end += (count - 1) * stride;
              f.repeats.emplace_back (stride, count);
            }
          if (!inside)
            throw FormatError (format ("%s: field %s lies outside %s", what,
                                       f.name.c_str (), l.name.c_str ()));
          f.detail = get_string (c, what);
        }
      layouts.emplace (LayoutKey (module, l.name, l.size), std::move (l));
    }
}

void
write_destructor_section (const LayoutTable &layouts, ByteWriter &w)
{
  uint64_t n = 0;
  for (const auto &l : layouts)
    n += l.second.destructor;
  w.uleb (n);
  for (const auto &l : layouts)
    if (l.second.destructor)
      put_key (w, l.first);
}

void
read_destructor_section (const uint8_t *data, size_t size,
                         LayoutTable &layouts)
{
  const char *what = "type destructor section";
  ByteCursor c (data, size);
  for (auto &l : layouts)
    l.second.destructor = false;
  uint64_t n = c.count (c.uleb (what), 3, "type destructor entry");
  for (uint64_t i = 0; i < n; i++)
    {
      std::string module = get_string (c, what);
      std::string name = get_string (c, what);
      uint64_t size = c.uleb (what);
      auto it = layouts.find (LayoutKey (module, name, size));
      if (it != layouts.end ())
        it->second.destructor = true;
    }
}

} // namespace memprof
