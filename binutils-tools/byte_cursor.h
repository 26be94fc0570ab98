// Bounds-checked little-endian reading of a byte span.  Every read that
// would pass the end throws FormatError naming WHAT was being read, so
// readers of hostile files never index out of range.
#ifndef MEMPROF_TOOLS_BYTE_CURSOR_H
#define MEMPROF_TOOLS_BYTE_CURSOR_H

#include "diag.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace memprof {

// The little-endian u64 at P, unchecked: for spans a ByteCursor has
// already checked.
inline uint64_t
load_u64le (const uint8_t *p)
{
  uint64_t v;
  std::memcpy (&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  return v;
}

class ByteCursor
{
public:
  ByteCursor (const uint8_t *data, size_t size, size_t pos = 0)
    : data_ (data), size_ (size), pos_ (pos)
  {}

  size_t pos () const { return pos_; }
  size_t size () const { return size_; }
  size_t remaining () const { return pos_ <= size_ ? size_ - pos_ : 0; }
  bool at_end () const { return pos_ >= size_; }

  void seek (uint64_t pos, const char *what)
  {
    if (pos > size_)
      throw FormatError (format ("%s: offset %llu is past the end (%zu bytes)",
                                 what, (unsigned long long) pos, size_));
    pos_ = static_cast<size_t> (pos);
  }

  void need (uint64_t n, const char *what) const
  {
    if (n > remaining ())
      throw FormatError (format ("truncated %s at offset %zu: need %llu "
                                 "bytes, %zu left",
                                 what, pos_, (unsigned long long) n,
                                 remaining ()));
  }

  void skip (uint64_t n, const char *what)
  {
    need (n, what);
    pos_ += static_cast<size_t> (n);
  }

  // Skip zero padding up to the next multiple of 8 (relative to the span).
  void align8 (const char *what)
  {
    size_t pad = (8 - (pos_ & 7)) & 7;
    skip (pad, what);
  }

  uint8_t u8 (const char *what)
  {
    need (1, what);
    return data_[pos_++];
  }

  uint32_t u32 (const char *what)
  {
    need (4, what);
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
      v = (v << 8) | data_[pos_ + i];
    pos_ += 4;
    return v;
  }

  uint64_t u64 (const char *what)
  {
    need (8, what);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
      v = (v << 8) | data_[pos_ + i];
    pos_ += 8;
    return v;
  }

  // Unsigned LEB128, at most 10 bytes and 64 bits.
  uint64_t uleb (const char *what)
  {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7)
      {
        uint8_t b = u8 (what);
        if (shift == 63 && (b & 0x7e) != 0)
          break;
        v |= static_cast<uint64_t> (b & 0x7f) << shift;
        if (!(b & 0x80))
          return v;
      }
    throw FormatError (format ("bad varint in %s at offset %zu", what, pos_));
  }

  const uint8_t *bytes (uint64_t n, const char *what)
  {
    need (n, what);
    const uint8_t *p = data_ + pos_;
    pos_ += static_cast<size_t> (n);
    return p;
  }

  // A count of items of at least MIN_ITEM_SIZE bytes each: rejected when
  // the rest of the span could not hold that many, which keeps hostile
  // counts from driving huge allocations or long loops.
  uint64_t count (uint64_t n, uint64_t min_item_size, const char *what) const
  {
    if (min_item_size && n > remaining () / min_item_size)
      throw FormatError (format ("%s count %llu is impossible: only %zu "
                                 "bytes left",
                                 what, (unsigned long long) n, remaining ()));
    return n;
  }

private:
  const uint8_t *data_;
  size_t size_;
  size_t pos_;
};

// True when [P, P+N) is well-formed UTF-8 (no overlongs, no surrogates).
bool valid_utf8 (const uint8_t *p, size_t n);

} // namespace memprof

#endif
