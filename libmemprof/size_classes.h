// The primary allocator's geometry: its size classes, the region each
// class owns, and where blocks start in a region.  Shared by
// allocator.cpp and the inline fast paths of allocator.h.
//
// 59 size classes of block sizes (32-byte steps up to 1 KiB, then four
// classes per power of two up to 128 KiB).  Every class owns a 64 GiB
// region of one reserved space, so a pointer's class is
// (p - space) >> 36 and blocks of a class are contiguous.

#ifndef MEMPROF_SIZE_CLASSES_H
#define MEMPROF_SIZE_CLASSES_H

#include <stddef.h>
#include <stdint.h>

namespace memprof {

constexpr int kNumClasses = 59;
constexpr int kLinearClasses = 31;        // 64, 96, ..., 1024.
constexpr uintptr_t kMaxPrimaryBlock = 131072;
constexpr int kRegionShift = 36;
constexpr uintptr_t kRegionSize = (uintptr_t) 1 << kRegionShift;

constexpr uintptr_t
class_block_size (int c)
{
  if (c < kLinearClasses)
    return (uintptr_t) (c + 2) * 32;
  int k = c - kLinearClasses;
  uintptr_t p = (uintptr_t) 1 << (10 + k / 4);
  return p + (uintptr_t) (k % 4 + 1) * (p / 4);
}

static_assert (class_block_size (kNumClasses - 1) == kMaxPrimaryBlock,
               "size classes must end at the primary limit");

// The class of a block of NEEDED bytes (header included), at most
// kMaxPrimaryBlock.
inline int
class_of_block_size (uintptr_t needed)
{
  if (needed <= 1024)
    return (int) (needed / 32) - 2;
  int l = 63 - __builtin_clzl (needed - 1);
  uintptr_t p = (uintptr_t) 1 << l;
  uintptr_t step = p / 4;
  return kLinearClasses + (l - 10) * 4 + (int) ((needed - p + step - 1) / step)
         - 1;
}

// Where class C's first block starts in its region: C * 37 cache
// lines in.  Blocks start at that offset plus multiples of the block
// size.
//
// Why not at 0: the regions are 64 GiB apart, so their first blocks
// would share every address bit below bit 36, and with them every
// cache's set index, and so would their shadow counters (bit 33 and
// down).  The first blocks of a class are what a program allocates at
// start-up and keeps: an interpreter's heap, thread and value stack,
// one of each size.  Piled into one set of each cache they evicted one
// another at every access; duktape ran 5.9x slower than its plain build
// in the exact mode, 2.2x with these offsets (2.0x in the sampling mode,
// whose blocks are mostly glibc's).  37 lines is a step that
// visits every set of a 64-set L1 and gives each of the 59 classes its
// own set of an L2 of 1,024 sets, for the blocks and, 8 times denser,
// their counters.  (Within a class whose block is a multiple of 4 KiB,
// every block starts at one page offset, as glibc's mapped chunks do.)
constexpr uintptr_t
class_first_block (int c)
{
  return (uintptr_t) c * 37 * 64;
}

// Per class, looked up on the free path instead of computed: the block
// size, the blocks moved between a thread cache and the global stack at
// once (about 64 KiB worth, between 4 and 64), the multiplier that
// tells a block start without a division (with D = size / 32 and
// M = 2^64 / D rounded up, a 32-bit N is a multiple of D exactly when
// N * M (mod 2^64) < M: Lemire, Kaser and Kurz, "Faster remainder by
// direct computation"), and the offset of the first block.
struct ClassTable
{
  uint64_t multiple[kNumClasses];
  uint32_t block_size[kNumClasses];
  uint32_t batch_blocks[kNumClasses];
  uint32_t first_block[kNumClasses];
  constexpr ClassTable ()
    : multiple (), block_size (), batch_blocks (), first_block ()
  {
    for (int c = 0; c < kNumClasses; c++)
      {
        uintptr_t size = class_block_size (c);
        multiple[c] = ~(uint64_t) 0 / (size / 32) + 1;
        block_size[c] = (uint32_t) size;
        uintptr_t n = 65536 / size;
        batch_blocks[c] = n < 4 ? 4 : n > 64 ? 64 : (uint32_t) n;
        first_block[c] = (uint32_t) class_first_block (c);
      }
  }
};
inline constexpr ClassTable class_table;

// OFFSET (a multiple of 32, below the region size) from the start of
// class C's region is where a block starts.
inline bool
at_block_start (int c, uintptr_t offset)
{
  // Before the first block, the difference wraps past the region size.
  uintptr_t from_first = offset - class_table.first_block[c];
  if (from_first >= kRegionSize)
    return false;
  uint64_t n = from_first / 32;   // Below 2^31: regions are 2^36 bytes.
  return n * class_table.multiple[c] < class_table.multiple[c];
}

} // namespace memprof

#endif
