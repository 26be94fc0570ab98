/* The indexed profile format: written by memprof-merge, read by
   memprof-dump and memprof-merge (and, later, by the compiler).  This
   header is the only definition of the format.  Conventional file
   extension: .memprofdata.

   Little-endian.  "uleb" is unsigned LEB128 (at most 10 bytes, 64 bits).
   All offsets are from the start of the file unless said otherwise.

     header         struct memprof_indexed_header (64 bytes)
     section table  SECTION_COUNT entries of struct memprof_indexed_section
                    (24 bytes each) at SECTION_TABLE_OFFSET
     sections       anywhere after, each [offset, offset + size) inside the
                    file; a kind a reader does not know is skipped, so new
                    sections (type names per allocation site, per-offset
                    access histograms) need no new version.  A kind appears
                    at most once.

   Sections of version 1 (ids are section-relative byte offsets, so any
   item can be reached without decoding the ones before it):

   SUMMARY    uleb n, then n pairs (uleb tag, uleb value), tags below.
   STRINGS    back-to-back (uleb length, bytes) strings, UTF-8, no NUL.
              A string id is the offset of its length within the section;
              id 0 is the empty string.
   FILES      uleb n, then n nodes (uleb name string id, uleb parent): a
              forest of reversed path trees.  Node ids count from 1;
              parent 0 ends the path.  A path is the names from the root
              down joined by '/', so "/a/b.c" is "" <- "a" <- "b.c".
              File id 0 means no file.
   FRAMES     frames, each: uleb function string id (0 = not symbolized),
              uleb file id, uleb line, uleb column, uleb discriminator,
              uleb flags (bit 0: inlined into the next frame out; bit 1:
              a recursion was folded into this frame, raw_format.h;
              bit 2: the stack was cut after this frame at stack_depth,
              its callers not recorded -- flags a reader may ignore, so
              no new version), uleb
              module string id, uleb address (link-time, in the module).
              A frame id is the frame's offset within the section.
   STACKS     stacks, each: uleb n, then n frame ids, innermost first
              (frame 0 is the function that called the allocator).  A
              stack id is its offset within the section.
   SCHEMA     uleb n, then n field tags (mib_fields.inc): the order of
              the values in every record.  Tags unknown to a reader are
              skipped by their position.
   RECORDS    groups, one per function that calls the allocator (frame
              0's function), in byte order of the names: uleb function
              string id, uleb record count, then the records: uleb stack
              id, then one uleb per schema tag.
   FUNCTIONS  on-disk hash table from a function name to its group: u64
              bucket count B (a power of two), then B buckets of
              { u64 hash, u64 group offset within RECORDS }; an empty
              bucket has offset ~0.  Hash: HASH_TYPE of the name's bytes;
              open addressing, probing bucket (h + i) mod B.  A group
              may also be keyed by the functions its frame 0 was
              inlined into at the allocator's call (frames 1.. while
              the one before is inlined), so one name may key several
              groups; each group's own entry is inserted first.  (Not
              for the C++ standard library's groups.)

   Sections added within version 1 (readers that do not know them skip
   them):

   TYPES      the allocated types of the records (memprof/type_table.h:
              the plugin's allocation-site table joined with the
              stacks): uleb n, then n types, each: uleb name string id,
              uleb size (bytes; an array's element's), uleb module string
              id (the executable or shared library whose table named
              it, and whose DWARF describes it).  A record's
              data_type_id is 0 when its type is unknown, else the index
              of its type in this section plus one; without the section
              every data_type_id is 0.  Merging remaps the ids.
   HISTOGRAMS (histogram mode, -fheapprof-histogram; present exactly when
              SUMMARY has ACCESS_GRANULE 8) uleb n, then n entries:
              uleb stack id (STACKS), uleb slot count k, then k ulebs:
              slot i is the accesses to bytes [8i, 8i + 8) from the
              start of the record's blocks, summed over its blocks (and
              over the merged profiles).  At most one entry per record;
              a record without one had no slot counted.  Merging adds
              histograms slot by slot; profiles of the two modes are
              not merged (memprof-merge refuses them).
   TYPE_LAYOUTS  the byte layouts of the contexts' types, read from the
              modules' DWARF by memprof-merge, so a reader needs no
              binary.  Strings here are inline: uleb length, then bytes
              (UTF-8).  uleb n, then n layouts, by (module, name, size):
              string module (the path whose type table named the type),
              string type name, uleb type size, uleb field count, then
              the fields by offset, each: string name (dotted path:
              "hdr.len", "Base::id", "items[].key"; padding
              "PARENT.(padding)"), uleb kind (0 field, 1 padding, 2 a
              whole union, 3 bit-field), uleb offset, uleb size (bytes;
              a bit-field's: the bytes its bits touch), uleb alignment,
              uleb r, then r (uleb stride, uleb count) pairs, outermost
              first: arrays of structs folded around the field, which
              also lies at offset + sum of i_k * stride_k for every
              i_k < count_k (every repetition inside the type), then
              string detail (a union's "a | b", a bit-field's
              "bits 3..5" of the byte at offset, or empty).
   FUNCTION_LINES (kind 12)  uleb n, then n pairs (uleb frame id, uleb
              line): the line the frame's function starts at (its
              DW_AT_decl_line; for an inlined frame, the inlined
              function's).  Frames not listed have no known start line.
              The compiler (-fheapprof-use) matches a call's line relative
              to its function's start, so a profile still applies after
              lines moved above the function; a profile without this
              section is matched by absolute lines.
   TYPE_DESTRUCTORS (kind 13)  which of the TYPE_LAYOUTS types may have
              a non-trivial destructor (C++ declares one for the type, a
              base or a member), so that new T[n] of them keeps the
              array cookie before the objects: uleb n, then n keys
              (string module, string type name, uleb type size, as in
              TYPE_LAYOUTS).  With the section, a layout not listed has
              none (a C struct); without it, any layout may.
   TYPE_PREFIXES (kind 14)  which TYPES entries are the header of larger
              blocks rather than their element (the type table's prefix
              records): uleb n, then n indexes into TYPES, from 1.
              Absent: none.
   UNSYMBOLIZED (kind 15)  modules whose frames memprof-merge left
              unsymbolized: uleb n, then n pairs of STRINGS ids (the
              module's path, why: "cannot open: No such file or
              directory").  Absent: none.
   PROGRAMS (kind 16)  the executables of the raw profiles merged in:
              uleb n, then n pairs: string id of the path (the raw
              metadata EXECUTABLE), uleb how many runs its raw profiles
              came from (a run: one pid and start time, whatever its
              dumps; an earlier writer counted the raw profiles).
              Absent: not known (an earlier writer).
   TYPE_OFFSETS (kind 17)  TYPES entries that start past a size header
              in each block (an allocator returning its blocks past it:
              type_table.h's offset records): uleb n, then n pairs
              (uleb index into TYPES, from 1; uleb bytes before the
              type).  HISTOGRAMS slots still count from the block's
              start.  Absent: every type starts at the block's start.  */

#ifndef MEMPROF_INDEXED_FORMAT_H
#define MEMPROF_INDEXED_FORMAT_H

#include <stdint.h>

/* File bytes 81 'g' 'm' 'p' 'i' 'd' 'x' ff.  */
#define MEMPROF_INDEXED_MAGIC UINT64_C (0xff786469706d6781)
#define MEMPROF_INDEXED_VERSION 1
#define MEMPROF_INDEXED_SUFFIX ".memprofdata"

/* HASH_TYPE values.  */
#define MEMPROF_HASH_FNV1A_64 1

struct memprof_indexed_header
{
  uint64_t magic;
  uint64_t version;
  uint64_t hash_type;
  uint64_t total_size;           /* Bytes in the whole file.  */
  uint64_t section_table_offset;
  uint64_t section_count;
  uint64_t reserved[2];          /* Zero.  */
};

struct memprof_indexed_section
{
  uint32_t kind;
  uint32_t flags;                /* Zero.  */
  uint64_t offset;
  uint64_t size;
};

enum memprof_indexed_section_kind
{
  MEMPROF_SECTION_SUMMARY = 1,
  MEMPROF_SECTION_STRINGS = 2,
  MEMPROF_SECTION_FILES = 3,
  MEMPROF_SECTION_FRAMES = 4,
  MEMPROF_SECTION_STACKS = 5,
  MEMPROF_SECTION_SCHEMA = 6,
  MEMPROF_SECTION_RECORDS = 7,
  MEMPROF_SECTION_FUNCTIONS = 8,
  MEMPROF_SECTION_TYPES = 9,
  MEMPROF_SECTION_HISTOGRAMS = 10,
  MEMPROF_SECTION_TYPE_LAYOUTS = 11,
  MEMPROF_SECTION_FUNCTION_LINES = 12,
  MEMPROF_SECTION_TYPE_DESTRUCTORS = 13,
  MEMPROF_SECTION_TYPE_PREFIXES = 14,
  MEMPROF_SECTION_UNSYMBOLIZED = 15,
  MEMPROF_SECTION_PROGRAMS = 16,
  MEMPROF_SECTION_TYPE_OFFSETS = 17
};

/* SUMMARY tags.  Unknown tags are skipped.  */
enum memprof_indexed_summary_tag
{
  MEMPROF_SUMMARY_PROFILES = 1,      /* Raw profiles merged in.  */
  MEMPROF_SUMMARY_CONTEXTS = 2,      /* Records.  */
  MEMPROF_SUMMARY_FUNCTIONS = 3,     /* Record groups.  */
  MEMPROF_SUMMARY_ALLOC_COUNT = 4,   /* Sum of alloc_count.  */
  MEMPROF_SUMMARY_TOTAL_SIZE = 5,    /* Sum of total_size.  */
  MEMPROF_SUMMARY_ACCESS_COUNT = 6,  /* Sum of total_access_count.  */
  /* The largest live heap peak of the raw profiles merged in (raw
     metadata PEAK_*); absent when none had one.  */
  MEMPROF_SUMMARY_PEAK_BYTES = 7,
  MEMPROF_SUMMARY_PEAK_BLOCKS = 8,
  MEMPROF_SUMMARY_PEAK_TIME = 9,     /* ms into that run.  */
  /* The raw profiles' sample interval (raw metadata SAMPLE_INTERVAL):
     the records are weighted estimates.  Absent: exact.  Only profiles
     of one interval merge.  */
  MEMPROF_SUMMARY_SAMPLE_INTERVAL = 10,
  /* Bytes one access counter covered: 8 in histogram mode (the profile
     has a HISTOGRAMS section); absent in the default mode (64).  */
  MEMPROF_SUMMARY_ACCESS_GRANULE = 11,
  /* 1: every raw profile merged in was sampled and calibrated to exact
     per-site totals (raw metadata SITE_CALIBRATED), so each frame-0
     site's alloc_count and total_size sums are exact.  Absent: not
     (a merge with an uncalibrated sampled profile drops it).  */
  MEMPROF_SUMMARY_SITE_CALIBRATED = 12,
  /* Sampled profiles: allocations and bytes tallied at sites where no
     sampled block was recorded, which no context holds (raw metadata
     UNATTRIBUTED_ALLOCS and _BYTES, summed).  Absent: 0.  */
  MEMPROF_SUMMARY_UNATTRIBUTED_ALLOCS = 13,
  MEMPROF_SUMMARY_UNATTRIBUTED_BYTES = 14,
  /* Raw profiles merged in that had no instrumented code (raw metadata
     UNINSTRUMENTED): none of their accesses was counted.  Absent: 0.  */
  MEMPROF_SUMMARY_UNINSTRUMENTED_PROFILES = 15
};

#endif /* MEMPROF_INDEXED_FORMAT_H */
