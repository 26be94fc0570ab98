// Appending little-endian integers and LEB128 varints to a byte buffer.
#ifndef MEMPROF_TOOLS_BYTE_WRITER_H
#define MEMPROF_TOOLS_BYTE_WRITER_H

#include <cstdint>
#include <string>
#include <vector>

namespace memprof {

class ByteWriter
{
public:
  std::vector<uint8_t> bytes;

  size_t size () const { return bytes.size (); }
  void u32 (uint32_t v)
  {
    for (int i = 0; i < 4; i++)
      bytes.push_back (static_cast<uint8_t> (v >> (8 * i)));
  }
  void u64 (uint64_t v)
  {
    for (int i = 0; i < 8; i++)
      bytes.push_back (static_cast<uint8_t> (v >> (8 * i)));
  }
  void put_u64_at (size_t pos, uint64_t v)
  {
    for (int i = 0; i < 8; i++)
      bytes[pos + i] = static_cast<uint8_t> (v >> (8 * i));
  }
  void uleb (uint64_t v)
  {
    do
      {
        uint8_t b = v & 0x7f;
        v >>= 7;
        bytes.push_back (v ? (b | 0x80) : b);
      }
    while (v);
  }
  void raw (const void *p, size_t n)
  {
    const uint8_t *b = static_cast<const uint8_t *> (p);
    bytes.insert (bytes.end (), b, b + n);
  }
  void append (const ByteWriter &w) { raw (w.bytes.data (), w.bytes.size ()); }
  void align8 ()
  {
    while (bytes.size () % 8)
      bytes.push_back (0);
  }
};

// FNV-1a, 64 bits: the hash of the FUNCTIONS table (HASH_TYPE 1).
inline uint64_t
fnv1a_64 (const std::string &s)
{
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s)
    {
      h ^= c;
      h *= 1099511628211ULL;
    }
  return h;
}

} // namespace memprof

#endif
