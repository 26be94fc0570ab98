// UTF-8 validation for strings read from profiles (they end up in JSON).
#include "byte_cursor.h"

namespace memprof {

bool
valid_utf8 (const uint8_t *p, size_t n)
{
  size_t i = 0;
  while (i < n)
    {
      uint8_t c = p[i];
      if (c < 0x80)
        {
          i++;
          continue;
        }
      size_t len;
      uint32_t cp;
      if ((c & 0xe0) == 0xc0)
        len = 2, cp = c & 0x1f;
      else if ((c & 0xf0) == 0xe0)
        len = 3, cp = c & 0x0f;
      else if ((c & 0xf8) == 0xf0)
        len = 4, cp = c & 0x07;
      else
        return false;
      if (n - i < len)
        return false;
      for (size_t k = 1; k < len; k++)
        {
          if ((p[i + k] & 0xc0) != 0x80)
            return false;
          cp = (cp << 6) | (p[i + k] & 0x3f);
        }
      if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800)
          || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))
          || (cp >= 0xd800 && cp <= 0xdfff))
        return false;
      i += len;
    }
  return true;
}

} // namespace memprof
