// The 32-byte header in front of every heap block (the RFC's
// ChunkHeader).  With 32-byte headers and 32-byte aligned blocks no
// 64-byte granule holds user bytes of two blocks.

#ifndef MEMPROF_CHUNK_HEADER_H
#define MEMPROF_CHUNK_HEADER_H

#include <stdint.h>

#include "memprof/abi.h"

namespace memprof {

enum ChunkState : uint8_t
{
  kChunkFree = 0,        // Never handed out, or freed.
  kChunkAllocated = 0x5a,
  // Reported live by a dump (or dropped by a reset/fork): its free makes
  // no further record, so nothing is counted twice.
  kChunkReported = 0x3c,
  // At the start of a primary block whose user pointer was aligned past
  // the first 32 bytes: requested_size holds the offset of the real header.
  kChunkRedirect = 0xd2,
};

enum ChunkFlags : uint8_t
{
  kChunkSecondary = 1,   // Mapped on its own (large or over-aligned).
  kChunkAligned = 2,     // Header is not at the primary block's start.
  // Sampling mode (sampler.h): profiled, stands for 1/p blocks like it.
  // (An unsampled block is the C library's: sampling_heap.h.)
  kChunkSampled = 4,
  // Sampling mode: a site's first block in its thread, ours with weight
  // 1 outside the sampling (a certainty unit: site_calibration.h).
  kChunkCertain = 8,
  // Sampling mode: a block of ours that realloc kept in place for an
  // unsampled allocation.  It stands for nothing, like a C library
  // block (state kChunkReported: no record at its free, and no part in
  // the live heap).
  kChunkUnprofiled = 16,
  // A secondary block in a mapping a freed block left (allocator.cpp,
  // kept mappings): its bytes are not zero.
  kChunkReused = 32,
};

struct ChunkHeader
{
  uint8_t state;             // ChunkState; changed atomically.
  uint8_t flags;             // ChunkFlags.
  uint16_t epoch;            // Profiling epoch of the allocation.
  uint32_t alloc_cpu;
  uint32_t alloc_timestamp;  // ms since the runtime's clock zero.
  uint32_t alloc_context_id; // Stack depot id.
  uint64_t requested_size;
  uint64_t data_type_id;     // Zero until type profiling exists.
};

static_assert (sizeof (ChunkHeader) == MEMPROF_CHUNK_HEADER_SIZE,
               "chunk header must be 32 bytes");

inline ChunkHeader *
header_before (const void *user)
{
  return (ChunkHeader *) ((uintptr_t) user - sizeof (ChunkHeader));
}

} // namespace memprof

#endif
