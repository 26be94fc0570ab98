// The raw profile writer.  Sections are streamed through a mapped buffer
// in file order; the header, whose offsets are known only at the end, is
// written last at offset 0.  Its ulebs and frame words (raw_format.h)
// are coded here by hand: a few lines, where a library would be the
// runtime's first dependency beyond the C library.

#include <config.h>

#include "profile_writer.h"
#include "internal.h"
#include "module_table.h"
#include "process_info.h"
#include "stack_depot.h"

#include <link.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "memprof/abi.h"
#include "memprof/raw_format.h"

namespace memprof {

namespace {

class Writer
{
public:
  // A 1 MiB buffer, or where the address space is short (a limit the
  // program set) the static one: the profile is written either way.
  // (Dumps are serialised, so one static buffer serves them all.)
  explicit Writer (int fd) : fd_ (fd)
  {
    buf_ = (char *) map_memory (kMappedSize, false);
    if (buf_)
      size_ = kMappedSize;
    else
      {
        buf_ = fallback_buf;
        size_ = sizeof fallback_buf;
      }
  }
  ~Writer ()
  {
    if (buf_ != fallback_buf)
      unmap_memory (buf_, kMappedSize);
  }

  void bytes (const void *p, size_t n)
  {
    const char *s = (const char *) p;
    // Small items (most of a profile is 8-byte fields and 8-byte PCs)
    // are copied inline while they fit.
    if (n <= 16 && n <= size_ - used_ && !error_)
      {
        char *d = buf_ + used_;
        for (size_t i = 0; i < n; i++)
          d[i] = s[i];
        used_ += n;
        offset_ += n;
        if (used_ == size_)
          flush ();
        return;
      }
    while (n && !error_)
      {
        size_t room = size_ - used_;
        size_t k = n < room ? n : room;
        internal_memcpy (buf_ + used_, s, k);
        used_ += k;
        s += k;
        n -= k;
        offset_ += k;
        if (used_ == size_)
          flush ();
      }
  }
  void u32 (uint32_t v) { bytes (&v, 4); }
  void uleb (uint64_t v)
  {
    uint8_t b[10];
    size_t n = 0;
    do
      {
        b[n] = (uint8_t) (v & 0x7f);
        v >>= 7;
        if (v)
          b[n] |= 0x80;
        n++;
      }
    while (v);
    bytes (b, n);
  }
  void u64 (uint64_t v)
  {
    if (LIKELY (size_ - used_ >= 8))
      {
        __builtin_memcpy (buf_ + used_, &v, 8);
        used_ += 8;
        offset_ += 8;
        if (used_ == size_)
          flush ();
      }
    else
      bytes (&v, 8);
  }
  void pad8 ()
  {
    static const char zeros[8] = {};
    if (offset_ % 8)
      bytes (zeros, 8 - offset_ % 8);
  }
  uint64_t offset () const { return offset_; }
  void flush ()
  {
    size_t done = 0;
    while (done < used_ && !error_)
      {
        long r = sys_write (fd_, buf_ + done, used_ - done);
        if (r <= 0)
          error_ = r < 0 ? (int) r : -5;   // EIO on a zero write
        else
          done += r;
      }
    used_ = 0;
  }
  int error () const { return error_; }
  void set_error (int e) { if (!error_) error_ = e; }

private:
  static constexpr size_t kMappedSize = 1 << 20;
  static char fallback_buf[4096];
  int fd_;
  char *buf_ = nullptr;
  size_t size_ = 0;
  size_t used_ = 0;
  uint64_t offset_ = 0;
  int error_ = 0;
};

char Writer::fallback_buf[4096];

// ---- metadata --------------------------------------------------------

void
meta_item (Writer &w, uint32_t tag, const void *data, uint32_t len)
{
  w.u32 (tag);
  w.u32 (len);
  w.bytes (data, len);
  w.pad8 ();
}

void
meta_u64 (Writer &w, uint32_t tag, uint64_t v)
{
  meta_item (w, tag, &v, 8);
}

// Read a whole small /proc file into BUF; returns its length.
size_t
read_proc_file (const char *path, char *buf, size_t size)
{
  int fd = sys_open (path, 0, 0);
  if (fd < 0)
    return 0;
  size_t n = 0;
  while (n < size)
    {
      long r = sys_read (fd, buf + n, size - n);
      if (r <= 0)
        break;
      n += r;
    }
  sys_close (fd);
  return n;
}

char command_line[64 * 1024];
size_t command_line_length;

void
write_metadata (Writer &w, const ProfileMeta &meta)
{
  // Executable, pid, command line, start, end, host, version, dump
  // sequence, the peak's bytes, blocks and time, the parent's pid in a
  // forked child, the sample interval of a sampled profile (and whether
  // its sites were calibrated, with what no record holds) and the access
  // granule in histogram mode; that no instrumented code ran, if none;
  // what made the dump.
  uint64_t count = 11 + (meta.parent_pid ? 1 : 0)
                   + (meta.sample_interval ? 1 : 0)
                   + (meta.site_calibrated ? 3 : 0) + meta.histogram_mode
                   + meta.uninstrumented + (meta.written_at ? 1 : 0);
  w.u64 (count);
  char path[4096];
  size_t n = executable_path (path, sizeof path);
  meta_item (w, MEMPROF_META_EXECUTABLE, path, (uint32_t) n);
  meta_u64 (w, MEMPROF_META_PID, meta.pid);
  meta_item (w, MEMPROF_META_COMMAND_LINE, command_line,
             (uint32_t) command_line_length);
  meta_u64 (w, MEMPROF_META_START_TIME, meta.start_time_ms);
  meta_u64 (w, MEMPROF_META_END_TIME, meta.end_time_ms);
  struct utsname u;
  if (uname (&u) != 0)
    u.nodename[0] = 0;
  meta_item (w, MEMPROF_META_HOSTNAME, u.nodename,
             (uint32_t) internal_strlen (u.nodename));
  static const char version[] = "gcc-memprof " PACKAGE_VERSION;
  meta_item (w, MEMPROF_META_RUNTIME_VERSION, version,
             (uint32_t) sizeof version - 1);
  if (meta.parent_pid)
    meta_u64 (w, MEMPROF_META_PARENT_PID, meta.parent_pid);
  meta_u64 (w, MEMPROF_META_DUMP_SEQUENCE, meta.dump_sequence);
  meta_u64 (w, MEMPROF_META_PEAK_BYTES, meta.peak_bytes);
  meta_u64 (w, MEMPROF_META_PEAK_BLOCKS, meta.peak_blocks);
  meta_u64 (w, MEMPROF_META_PEAK_TIME, meta.peak_time_ms);
  if (meta.sample_interval)
    meta_u64 (w, MEMPROF_META_SAMPLE_INTERVAL, meta.sample_interval);
  if (meta.site_calibrated)
    {
      meta_u64 (w, MEMPROF_META_SITE_CALIBRATED, 1);
      meta_u64 (w, MEMPROF_META_UNATTRIBUTED_ALLOCS, meta.unattributed_allocs);
      meta_u64 (w, MEMPROF_META_UNATTRIBUTED_BYTES, meta.unattributed_bytes);
    }
  if (meta.histogram_mode)
    meta_u64 (w, MEMPROF_META_ACCESS_GRANULE, MEMPROF_HISTOGRAM_SLOT_SIZE);
  if (meta.uninstrumented)
    meta_u64 (w, MEMPROF_META_UNINSTRUMENTED, 1);
  if (meta.written_at)
    meta_u64 (w, MEMPROF_META_WRITTEN_AT, meta.written_at);
}

// ---- segments --------------------------------------------------------

struct SegmentPass
{
  Writer *w;         // Null: count only.
  uint64_t count;
  bool first;
  ModuleRecord *scratch;
};

void
write_module_segments (SegmentPass &pass, const ModuleRecord &m)
{
  pass.count += m.num_segments;
  if (!pass.w)
    return;
  uint32_t path_length = (uint32_t) internal_strlen (m.path);
  for (uint32_t i = 0; i < m.num_segments; i++)
    {
      memprof_raw_segment s;
      internal_memset (&s, 0, sizeof s);
      s.start = m.segments[i].start;
      s.end = m.segments[i].end;
      s.offset = m.segments[i].offset;
      s.load_address = m.bias;
      s.build_id_size = m.build_id_size;
      s.path_length = path_length;
      internal_memcpy (s.build_id, m.build_id, sizeof s.build_id);
      pass.w->bytes (&s, sizeof s);
      pass.w->u64 (m.unload_generation);
      pass.w->bytes (m.path, path_length);
      pass.w->pad8 ();
    }
}

int
loaded_module_callback (dl_phdr_info *info, size_t, void *arg)
{
  SegmentPass &pass = *(SegmentPass *) arg;
  describe_module (info, pass.first, pass.scratch);
  pass.first = false;
  write_module_segments (pass, *pass.scratch);
  return 0;
}

void
closed_module_callback (const ModuleRecord &m, void *arg)
{
  write_module_segments (*(SegmentPass *) arg, m);
}

// The modules loaded now, then the closed ones kept (module_table.h).
void
write_segments (Writer &w)
{
  static ModuleRecord scratch;   // Only touched under the dump lock.
  // Count first: the count precedes the entries.  A module loaded
  // between the two passes makes them differ: the dump then fails
  // rather than write an inconsistent file.
  SegmentPass counting = { nullptr, 0, true, &scratch };
  dl_iterate_phdr (loaded_module_callback, &counting);
  for_each_closed_module (closed_module_callback, &counting);
  w.u64 (counting.count);
  SegmentPass writing = { &w, 0, true, &scratch };
  dl_iterate_phdr (loaded_module_callback, &writing);
  for_each_closed_module (closed_module_callback, &writing);
  if (writing.count != counting.count)
    w.set_error (-11);   // EAGAIN: the module list changed under us.
}

// ---- records and stacks -----------------------------------------------

// The sections in ulebs (raw_format.h, version 5): most values are
// small, and a u64 each made jsonnet's start-up write 11.7 MB.
void
write_mibs (Writer &w, const HibNode *records, uint64_t count)
{
  constexpr size_t kValues = sizeof (memprof_raw_mib) / sizeof (uint64_t);
  w.u64 (count);
  w.u64 (kValues);
  for (const HibNode *n = records; n; n = n->next)
    {
      const uint64_t *v = &n->mib.stack_id;
      for (size_t i = 0; i < kValues; i++)
        w.uleb (v[i]);
    }
  w.pad8 ();
}

// Each stack's outer frames shared with the stack before it are written
// as their number only.
void
write_stacks (Writer &w, const HibNode *records, uint64_t count)
{
  w.u64 (count);
  const uintptr_t *before = nullptr;
  uint32_t before_depth = 0;
  for (const HibNode *n = records; n; n = n->next)
    {
      const uintptr_t *pcs = nullptr;
      uint32_t generation = 0;
      uint32_t depth = depot_get ((uint32_t) n->mib.stack_id, &pcs,
                                  &generation);
      uint32_t shared = 0;
      while (shared < depth && shared < before_depth
             && pcs[depth - 1 - shared] == before[before_depth - 1 - shared])
        shared++;
      w.uleb (n->mib.stack_id);
      w.uleb (depth);
      w.uleb (generation);
      w.uleb (shared);
      uint64_t prev = 0;
      for (uint32_t k = 0; k + shared < depth; k++)
        {
          w.uleb (memprof_raw_frame_word (pcs[k], prev));
          prev = pcs[k] & ~MEMPROF_RAW_PC_FLAGS;
        }
      before = pcs;
      before_depth = depth;
    }
  w.pad8 ();
}

void
write_histograms (Writer &w, const HistogramNode *list)
{
  uint64_t count = 0;
  for (const HistogramNode *n = list; n; n = n->next)
    count++;
  w.u64 (count);
  for (const HistogramNode *n = list; n; n = n->next)
    {
      w.uleb (n->context_id);
      w.uleb (n->num_slots);
      for (uint32_t i = 0; i < n->num_slots; i++)
        w.uleb (n->counts[i]);
    }
  w.pad8 ();
}

} // namespace

void
record_command_line (int argc, char **argv)
{
  if (!argv)
    {
      command_line_length = read_proc_file ("/proc/self/cmdline", command_line,
                                            sizeof command_line);
      return;
    }
  size_t n = 0;
  for (int i = 0; i < argc && argv[i]; i++)
    {
      size_t len = internal_strlen (argv[i]) + 1;   // With its NUL.
      if (n + len > sizeof command_line)
        break;
      internal_memcpy (command_line + n, argv[i], len);
      n += len;
    }
  command_line_length = n;
}

int
write_raw_profile (int fd, const HibNode *records, const ProfileMeta &meta)
{
  Writer w (fd);
  memprof_raw_header h;
  internal_memset (&h, 0, sizeof h);
  static_assert (sizeof h == 128, "raw header is 128 bytes");
  w.bytes (&h, sizeof h);
  h.metadata_offset = w.offset ();
  write_metadata (w, meta);
  h.segment_offset = w.offset ();
  write_segments (w);
  uint64_t count = 0;
  for (const HibNode *n = records; n; n = n->next)
    count++;
  h.mib_offset = w.offset ();
  write_mibs (w, records, count);
  h.stack_offset = w.offset ();
  write_stacks (w, records, count);
  if (meta.histogram_mode)
    {
      h.histogram_offset = w.offset ();
      write_histograms (w, meta.histograms);
    }
  h.total_size = w.offset ();
  w.flush ();
  if (w.error ())
    return w.error ();
  h.magic = MEMPROF_RAW_MAGIC;
  h.version = MEMPROF_RAW_VERSION;
  long r = sys_pwrite (fd, &h, sizeof h, 0);
  if (r != (long) sizeof h)
    return r < 0 ? (int) r : -5;
  return 0;
}

} // namespace memprof
