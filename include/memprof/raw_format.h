/* The raw profile format: written by libmemprof, one file per process run
   (and per __memprof_profile_dump call), read by memprof-merge and
   memprof-dump.  This header is the only definition of the format; the
   runtime and the tools both include it.  Freestanding: <stdint.h> only.

   Everything is little-endian.  Every section starts 8-byte aligned and
   every variable-length item is padded with zero bytes to a multiple of 8.
   All offsets are from the start of the file.  A uleb is an unsigned
   LEB128 number (7 bits a byte, low first, the top bit set on every byte
   but the last).

   The layout below is version 5's.  Before it (versions 1 to 4) the
   MIB, stack and histogram sections held u64s, no ulebs:
     mibs        u64 count, u64 record_size, then COUNT records of
                   RECORD_SIZE bytes: u64 stack_id and the fields, u64
                   each
     stacks      u64 count, then COUNT entries
                   { u64 stack_id; u64 num_frames; u64 generation
                     (version 2 on); u64 pc[num_frames] }, each pc with
                   its flag bits (below)
     histograms  u64 count, then COUNT entries
                   { u64 stack_id; u64 num_slots; u64 slot[num_slots] }

     header      struct memprof_raw_header (128 bytes)
     metadata    u64 count, then COUNT tagged items
                   { u32 tag; u32 length; u8 data[length]; pad }
     segments    u64 count, then COUNT entries
                   struct memprof_raw_segment, u64 unload_generation,
                   char path[path_length], pad
     mibs        u64 count, u64 num_values, then COUNT records of
                   NUM_VALUES ulebs: stack_id, then the fields of
                   mib_fields.inc in table order.  A reader takes the
                   fields it knows and skips the rest of the record, so
                   fields can be appended.  Padded to 8.
     stacks      u64 count, then COUNT entries, padded to 8 at the end:
                   uleb stack_id, uleb num_frames, uleb generation,
                   uleb shared, then num_frames - shared ulebs: the
                   frames innermost first, each frame word
                   (MEMPROF_RAW_FRAME_WORD) coding its pc against the
                   pc before it in the entry (0 for pc[0]).  The
                   outermost SHARED frames are those of the entry
                   before (its last SHARED pcs, flags included; 0 in
                   the first entry): stacks of one program share their
                   outer frames.
                 pc[0] is in the function that called the allocation
                 function; each pc is a return address minus one, so it
                 lies inside the call instruction.  The runtime's own
                 frames never appear.  Bit 63 of a pc
                 (MEMPROF_RAW_PC_RECURSION_FOLDED, version 3 on) marks
                 a frame that stands for a folded recursion: the same
                 return address occurred again further in and those
                 occurrences, with the frames between them (the
                 recursive cycle), were left out; bit 62
                 (MEMPROF_RAW_PC_STACK_CUT, version 4 on) marks the last
                 frame of a stack cut at stack_depth frames, whose
                 callers were not recorded.  The address is the pc with
                 both bits cleared (user-space addresses never have
                 them set).
     histograms  (histogram mode only: HISTOGRAM_OFFSET non-zero)
                 u64 count, then COUNT entries
                   { uleb stack_id; uleb num_slots; uleb slot[num_slots] },
                 padded to 8 at the end
                 slot[i]: the accesses to bytes [8i, 8i + 8) from the
                 start of the context's blocks, summed over its blocks
                 reported in this profile (freed, or live at the dump).
                 A context has at most one entry; one with no entry had
                 no slot counted.  num_slots is the context's largest
                 block's slot count, capped by the runtime (512 in this
                 one: slots further in are left out of the histogram,
                 not folded into its last slot).

   Modules come and go (dlopen, dlclose), and a module loaded later may
   take the addresses of one closed before.  The runtime counts module
   generations: the generation goes up by one each time a dlclose unmaps
   a module.  A stack's generation is the one it was first recorded in;
   a segment's unload_generation is the generation its module's unmapping
   started (0: still loaded at the dump).  A PC of a stack of generation
   G belongs to the segment holding it with G < unload_generation (0
   counting as infinite) that has the smallest unload_generation.  The
   segments section holds the modules loaded at the dump and the closed
   modules some stack of the profile has frames in.

   A section a writer has nothing for still appears, with count 0.
   Reserved header words are zero; a reader ignores them, a later
   version may give them a meaning (a new section's offset).

   HISTOGRAM_OFFSET (the first reserved word, given this meaning within
   version 3) is 0 in profiles of the default mode, which are unchanged;
   metadata ACCESS_GRANULE says 8 in histogram mode.

   Versioning: additions a reader can skip (metadata tags, MIB fields
   appended, reserved words given a meaning) keep the version; a change
   of layout bumps it, and readers keep reading every earlier version.
     1  no generations: segments without unload_generation, stacks
        without generation (every stack of generation 0, every module
        loaded at the dump).
     2  module generations (a dlclosed module's frames stay symbolized).
        Later additions within it: MIB fields 23..28 (the live heap) and
        the PEAK_* metadata; a profile without them reads them as 0 and
        as no peak.  Version 3 later: SAMPLE_INTERVAL metadata; a profile
        without it is exact.  Later still: SITE_CALIBRATED metadata; a
        sampled profile without it has no exact per-site totals.  Later
        still: MIB field 29 (sampled_blocks); without it a sampled
        profile's records do not say how many blocks they rest on.
     5  ulebs in the MIB, stack and histogram sections, and stacks
        sharing their outer frames with the entry before: a fifth of
        version 4's size (jsonnet's start-up: 28,505 contexts, 11.7 MB
        in version 4, 2.2 MB in 5).  */

#ifndef MEMPROF_RAW_FORMAT_H
#define MEMPROF_RAW_FORMAT_H

#include <stdint.h>

/* File bytes 81 'g' 'm' 'p' 'r' 'a' 'w' ff.  */
#define MEMPROF_RAW_MAGIC UINT64_C (0xff776172706d6781)
#define MEMPROF_RAW_VERSION 5

/* Flag bit of a stored pc (version 3 on): recursion folded here.  */
#define MEMPROF_RAW_PC_RECURSION_FOLDED (UINT64_C (1) << 63)
/* Flag bit of a stored pc (version 4 on): the last frame of a stack the
   walk stopped at stack_depth; its callers were not recorded.  */
#define MEMPROF_RAW_PC_STACK_CUT (UINT64_C (1) << 62)
/* Every flag bit of a stored pc.  */
#define MEMPROF_RAW_PC_FLAGS \
  (MEMPROF_RAW_PC_RECURSION_FOLDED | MEMPROF_RAW_PC_STACK_CUT)

/* Version 5's frame word of PC (flag bits included) after the frame
   whose address was PREV (flag bits cleared; 0 before pc[0]): the
   address difference, zigzag-coded (0, -1, 1, -2, ... as 0, 1, 2,
   3, ...), shifted left by two, and the flag bits (63 and 62) in bits 1
   and 0.  Frames of one module lie close: most words take 2 to 4 bytes
   as ulebs.  */
static inline uint64_t
memprof_raw_frame_word (uint64_t pc, uint64_t prev)
{
  uint64_t addr = pc & ~MEMPROF_RAW_PC_FLAGS;
  uint64_t d = addr - prev;
  uint64_t zigzag = (d << 1) ^ (uint64_t) -(int64_t) (d >> 63);
  return (zigzag << 2) | (pc >> 62);
}

/* The pc (flag bits included) a frame word codes, after PREV.  */
static inline uint64_t
memprof_raw_frame_pc (uint64_t word, uint64_t prev)
{
  uint64_t zigzag = word >> 2;
  uint64_t d = (zigzag >> 1) ^ (uint64_t) -(int64_t) (zigzag & 1);
  return ((prev + d) & ~MEMPROF_RAW_PC_FLAGS) | (word << 62);
}

/* Default name pattern of a raw profile inside the profile directory:
   %e executable base name, %p pid, %h host name.  */
#define MEMPROF_RAW_DEFAULT_PATTERN "%e.%p.memprofraw"
#define MEMPROF_RAW_SUFFIX ".memprofraw"

#define MEMPROF_BUILD_ID_MAX 32

struct memprof_raw_header
{
  uint64_t magic;
  uint64_t version;
  uint64_t total_size;          /* Bytes in the whole profile.  */
  uint64_t metadata_offset;
  uint64_t segment_offset;
  uint64_t mib_offset;
  uint64_t stack_offset;
  uint64_t histogram_offset;    /* 0: no histograms (default mode).  */
  uint64_t reserved[8];         /* Zero.  */
};

/* Metadata tags.  Unknown tags are skipped by readers.  */
enum memprof_raw_meta_tag
{
  MEMPROF_META_EXECUTABLE = 1,    /* Path of /proc/self/exe, no NUL.  */
  MEMPROF_META_PID = 2,           /* u64.  */
  MEMPROF_META_COMMAND_LINE = 3,  /* argv, each argument NUL-terminated.  */
  MEMPROF_META_START_TIME = 4,    /* u64, Unix time in ms when the clock
                                     of this profile's timestamps was 0.  */
  MEMPROF_META_END_TIME = 5,      /* u64, Unix time in ms of the dump.  */
  MEMPROF_META_HOSTNAME = 6,      /* No NUL.  */
  MEMPROF_META_RUNTIME_VERSION = 7, /* e.g. "gcc-memprof 0.1.0", no NUL.  */
  MEMPROF_META_PARENT_PID = 8,    /* u64, set in a forked child.  */
  MEMPROF_META_DUMP_SEQUENCE = 9, /* u64: 0 for the first dump of the
                                     process, counting up per dump.  */
  MEMPROF_META_PEAK_BYTES = 10,   /* u64: the process's largest live heap
                                     bytes (requested sizes) so far.  */
  MEMPROF_META_PEAK_BLOCKS = 11,  /* u64: live blocks at that moment.  */
  MEMPROF_META_PEAK_TIME = 12,    /* u64: when, in ms of the profile's
                                     clock (see START_TIME).  */
  MEMPROF_META_SAMPLE_INTERVAL = 13, /* u64: the mean sampling interval in
                                     bytes of a sampled profile
                                     (sample_interval); absent in an
                                     exact one.  Its records are
                                     weighted estimates.  */
  MEMPROF_META_ACCESS_GRANULE = 14, /* u64: bytes one access counter
                                      covers: 8 in histogram mode (8-byte
                                      slots); absent: 64, the default
                                      mode's granules.  */
  MEMPROF_META_SITE_CALIBRATED = 15, /* u64 1, sampled profiles only: the
                                      records of each frame-0 site were
                                      scaled to the site's exact totals,
                                      so per site (frames 0 alike) the
                                      alloc_count and total_size sums
                                      are exact; the split among the
                                      site's contexts and the other
                                      fields stay estimates.  Absent:
                                      every record is an estimate.  */
  MEMPROF_META_UNATTRIBUTED_ALLOCS = 16, /* u64, calibrated sampled
                                      profiles: allocations tallied at
                                      sites where no sampled block was
                                      recorded (only a site's weight-1
                                      first blocks were), beyond those
                                      blocks: no record holds them, so
                                      the records' sums plus this are
                                      the exact count.  */
  MEMPROF_META_UNATTRIBUTED_BYTES = 17, /* u64: their bytes.  */
  MEMPROF_META_UNINSTRUMENTED = 18, /* u64 1: no unit compiled with
                                      -fheapprof registered in the process
                                      before the dump (the runtime was
                                      preloaded, or linked alone), so no
                                      access was counted.  Absent: some
                                      did.  */
  MEMPROF_META_WRITTEN_AT = 19     /* u64: what made the runtime write
                                      this profile: a
                                      memprof_raw_written_at in the low
                                      8 bits, the signal's number in
                                      the next 8 for a signal (a deadly
                                      or terminating one, or
                                      dump_signal).  Absent: not said
                                      (an earlier runtime).  */
};

/* MEMPROF_META_WRITTEN_AT's low 8 bits.  */
enum memprof_raw_written_at
{
  MEMPROF_WRITTEN_AT_EXIT = 1,     /* exit, or a return from main.  */
  MEMPROF_WRITTEN_AT_EXEC = 2,     /* an exec: the process went on as
                                      another program (whose profile is
                                      another file).  */
  MEMPROF_WRITTEN_AT_SIGNAL = 3,   /* a signal ending the process.  */
  MEMPROF_WRITTEN_AT_QUICK_EXIT = 4, /* _exit, _Exit or quick_exit.  */
  MEMPROF_WRITTEN_AT_REQUEST = 5,  /* __memprof_profile_dump ().  */
  MEMPROF_WRITTEN_AT_DUMP_SIGNAL = 6 /* the dump_signal option's signal:
                                      the process went on.  */
};

/* One executable mapping of a module (one PT_LOAD with PF_X).  The
   fixed part of a segment entry, the same in every version; version 2
   follows it with u64 unload_generation.  */
struct memprof_raw_segment
{
  uint64_t start;               /* Run-time start address.  */
  uint64_t end;                 /* Run-time end address (exclusive).  */
  uint64_t offset;              /* File offset the mapping starts at.  */
  uint64_t load_address;        /* Module bias (dl_iterate_phdr's
                                   dlpi_addr): run-time minus link-time
                                   address.  */
  uint32_t build_id_size;       /* 0 when the module has no build id.  */
  uint32_t path_length;         /* Bytes of path that follow, no NUL.  */
  uint8_t build_id[MEMPROF_BUILD_ID_MAX];
};

/* The raw MIB record as the runtime writes it in this version.  */
struct memprof_raw_mib
{
  uint64_t stack_id;
#define MEMPROF_MIB_FIELD(TAG, NAME, MERGE) uint64_t NAME;
#include "memprof/mib_fields.inc"
#undef MEMPROF_MIB_FIELD
};

#endif /* MEMPROF_RAW_FORMAT_H */
