// libFuzzer target: the indexed profile reader (whole-file and
// one-function lookup) must reject any input with a FormatError, never
// crash, hang or allocate without bound; what it accepts must survive a
// write and read again.
#include "context_table.h"
#include "diag.h"
#include "indexed_reader.h"
#include "indexed_writer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  try
    {
      memprof::ContextTable lookup;
      memprof::read_indexed_function (data, size, "main", {}, lookup);
    }
  catch (const memprof::FormatError &)
    {
    }
  try
    {
      memprof::ContextTable table;
      memprof::read_indexed (data, size, table);
      std::vector<uint8_t> again = memprof::write_indexed (table);
      memprof::ContextTable table2;
      memprof::read_indexed (again.data (), again.size (), table2);
      if (memprof::write_indexed (table2) != again)
        std::abort ();          // Writing is not canonical.
    }
  catch (const memprof::FormatError &)
    {
    }
  return 0;
}
