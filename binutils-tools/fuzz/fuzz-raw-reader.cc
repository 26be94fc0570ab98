// libFuzzer target: the raw profile reader must reject any input with a
// FormatError, never crash, hang or allocate without bound.
#include "context_table.h"
#include "diag.h"
#include "raw_reader.h"

#include <cstddef>
#include <cstdint>

extern "C" int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  try
    {
      std::vector<memprof::RawProfile> p
        = memprof::read_raw_profiles (data, size);
      (void) p;
    }
  catch (const memprof::FormatError &)
    {
    }
  return 0;
}
