// Modules as they load and unload: the dlclose interceptor, the closed
// modules kept for the profile, and module descriptions (see
// module_table.h).

#include "module_table.h"
#include "internal.h"
#include "process_info.h"
#include "next_fn.h"
#include "stack_depot.h"
#include "unwind.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

namespace memprof {

uint32_t module_generation;

namespace {

// The GNU build id of a module, from its PT_NOTE segments.
uint32_t
module_build_id (const dl_phdr_info *info, uint8_t *out)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) &ph = info->dlpi_phdr[i];
      if (ph.p_type != PT_NOTE)
        continue;
      const char *p = (const char *) (info->dlpi_addr + ph.p_vaddr);
      const char *end = p + ph.p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *nh = (const ElfW (Nhdr) *) p;
          const char *name = p + sizeof *nh;
          const char *desc = name + round_up (nh->n_namesz, 4);
          if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4
              && internal_strncmp (name, "GNU", 4) == 0)
            {
              uint32_t n = nh->n_descsz;
              if (n > MEMPROF_BUILD_ID_MAX)
                n = MEMPROF_BUILD_ID_MAX;
              internal_memcpy (out, desc, n);
              return n;
            }
          p = desc + round_up (nh->n_descsz, 4);
        }
    }
  return 0;
}

// Closed modules some stack had frames in: reserved once, filled in
// order; COUNT is published after its entry is complete, so readers
// need no lock.
constexpr uint32_t kMaxClosed = 4096;
ModuleRecord *closed;
uint32_t closed_count;
SpinLock dlclose_lock;      // One dlclose at a time is watched.

// The modules mapped now, into a mapping of their own.
struct Snapshot
{
  ModuleRecord *records = nullptr;
  uint32_t count = 0, capacity = 0;
  size_t bytes = 0;
};

int
count_module (dl_phdr_info *, size_t, void *arg)
{
  ++*(uint32_t *) arg;
  return 0;
}

int
snapshot_module (dl_phdr_info *info, size_t, void *arg)
{
  Snapshot &s = *(Snapshot *) arg;
  if (s.count < s.capacity)
    {
      describe_module (info, s.count == 0, &s.records[s.count]);
      s.count++;
    }
  return 0;
}

// S's mapping is kept from one dlclose to the next (under dlclose_lock)
// and grows as needed.
bool
take_snapshot (Snapshot &s)
{
  uint32_t n = 0;
  dl_iterate_phdr (count_module, &n);
  n += 16;   // Room for modules other threads load meanwhile.
  if (n > s.capacity)
    {
      if (s.records)
        unmap_memory (s.records, s.bytes);
      s.capacity = n * 2;
      s.bytes = round_up (s.capacity * sizeof (ModuleRecord), kPageSize);
      s.records = (ModuleRecord *) map_memory (s.bytes, false);
      if (!s.records)
        {
          s.capacity = 0;
          return false;
        }
    }
  s.count = 0;
  dl_iterate_phdr (snapshot_module, &s);
  return true;
}

// Mark in SNAPSHOT (by clearing their phdr) the modules still mapped.
int
mark_still_mapped (dl_phdr_info *info, size_t, void *arg)
{
  Snapshot &s = *(Snapshot *) arg;
  for (uint32_t i = 0; i < s.count; i++)
    if (s.records[i].phdr == info->dlpi_phdr
        && s.records[i].bias == info->dlpi_addr)
      s.records[i].phdr = nullptr;
  return 0;
}

bool
pc_in_module (uintptr_t pc, void *arg)
{
  const ModuleRecord &m = *(const ModuleRecord *) arg;
  for (uint32_t i = 0; i < m.num_segments; i++)
    if (pc >= m.segments[i].start && pc < m.segments[i].end)
      return true;
  return false;
}

bool
overlaps (const ModuleRecord &a, const ModuleRecord &b)
{
  for (uint32_t i = 0; i < a.num_segments; i++)
    for (uint32_t k = 0; k < b.num_segments; k++)
      if (a.segments[i].start < b.segments[k].end
          && b.segments[k].start < a.segments[i].end)
        return true;
  return false;
}

bool
same_module (const ModuleRecord &a, const ModuleRecord &b)
{
  if (a.bias != b.bias || a.num_segments != b.num_segments
      || a.build_id_size != b.build_id_size
      || internal_strcmp (a.path, b.path) != 0)
    return false;
  for (uint32_t i = 0; i < a.build_id_size; i++)
    if (a.build_id[i] != b.build_id[i])
      return false;
  for (uint32_t i = 0; i < a.num_segments; i++)
    if (a.segments[i].start != b.segments[i].start
        || a.segments[i].end != b.segments[i].end)
      return false;
  return true;
}

// Keep M, closed in GENERATION.  A plugin loaded and closed over and
// over at one address is kept once: when the last module kept at M's
// addresses is M itself, nothing else was recorded there in between,
// and raising its unload generation covers the stacks of both stays.
void
keep_closed (ModuleRecord &m, uint32_t generation)
{
  for (uint32_t i = closed_count; i-- > 0;)
    if (overlaps (closed[i], m))
      {
        if (!same_module (closed[i], m))
          break;
        __atomic_store_n (&closed[i].unload_generation, generation,
                          __ATOMIC_RELEASE);
        return;
      }
  if (!closed)
    closed = (ModuleRecord *) map_memory (kMaxClosed * sizeof (ModuleRecord),
                                          true);
  if (!closed || closed_count == kMaxClosed)
    return;   // Its frames will print as addresses.
  m.unload_generation = generation;
  internal_memcpy (&closed[closed_count], &m, sizeof m);
  __atomic_store_n (&closed_count, closed_count + 1, __ATOMIC_RELEASE);
}

// The modules of BEFORE no longer mapped were unmapped by this dlclose:
// start a new generation, retire the depot's stacks with frames in them,
// and keep those that had any.
void
note_unmapped (Snapshot &before)
{
  dl_iterate_phdr (mark_still_mapped, &before);
  bool any = false;
  for (uint32_t i = 0; i < before.count; i++)
    any |= before.records[i].phdr != nullptr;
  if (!any)
    return;
  uint32_t generation = __atomic_add_fetch (&module_generation, 1,
                                            __ATOMIC_ACQ_REL);
  // Code may now be mapped where the closed module's was: forget the
  // frame rules learnt there.
  unwind_forget_rules ();
  for (uint32_t i = 0; i < before.count; i++)
    {
      ModuleRecord &m = before.records[i];
      if (m.phdr && depot_retire (pc_in_module, &m, generation))
        keep_closed (m, generation);
    }
}

int (*real_dlclose) (void *);

uintptr_t
hex_value (char c)
{
  return c >= 'a' ? (uintptr_t) (c - 'a' + 10) : (uintptr_t) (c - '0');
}

bool
has_slash (const char *s)
{
  for (; *s; s++)
    if (*s == '/')
      return true;
  return false;
}

// Whether LINE of /proc/self/maps ("start-end perms offset dev inode
// path") maps ADDR from a file: then its path goes to OUT.
bool
maps_line_path (const char *line, const char *end, uintptr_t addr,
                char *out, size_t size)
{
  uintptr_t start = 0, stop = 0;
  const char *p = line;
  for (; p < end && *p != '-'; p++)
    start = start * 16 + hex_value (*p);
  for (p++; p < end && *p != ' '; p++)
    stop = stop * 16 + hex_value (*p);
  if (addr < start || addr >= stop)
    return false;
  for (int field = 0; field < 4 && p < end; field++)
    {
      while (p < end && *p == ' ')
        p++;
      while (p < end && *p != ' ')
        p++;
    }
  while (p < end && *p == ' ')
    p++;
  if (p == end || *p != '/' || (size_t) (end - p) >= size)
    return false;
  internal_memcpy (out, p, (size_t) (end - p));
  out[end - p] = '\0';
  return true;
}

// The absolute path of the file mapped at ADDR, as the kernel names it
// in /proc/self/maps, into OUT; false when there is none.  (A module
// loaded by a relative path, dlopen ("../lib/x.so"), keeps that name,
// and the program may have changed directory since.)
bool
mapped_file_path (uintptr_t addr, char *out, size_t size)
{
  int fd = sys_open ("/proc/self/maps", O_RDONLY, 0);
  if (fd < 0)
    return false;
  char buf[4096];
  size_t have = 0;
  bool found = false, skipping = false;
  long n;
  while (!found && (n = sys_read (fd, buf + have, sizeof buf - have)) > 0)
    {
      have += (size_t) n;
      const char *line = buf, *end = buf + have;
      for (const char *nl = line; !found && nl < end; nl++)
        if (*nl == '\n')
          {
            if (!skipping)
              found = maps_line_path (line, nl, addr, out, size);
            skipping = false;
            line = nl + 1;
          }
      have = (size_t) (end - line);
      if (have == sizeof buf)
        {
          // A line longer than the buffer: no path we could keep.
          skipping = true;
          have = 0;
        }
      internal_memmove (buf, line, have);
    }
  sys_close (fd);
  return found;
}

// Where module INFO's first loadable segment is mapped.
uintptr_t
first_segment (const dl_phdr_info *info)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      return info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
  return 0;
}

} // namespace

void
describe_module (const dl_phdr_info *info, bool is_main, ModuleRecord *out)
{
  out->bias = info->dlpi_addr;
  out->phdr = info->dlpi_phdr;
  out->unload_generation = 0;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  char cwd[ModuleRecord::kMaxPath];
  if (is_main && !*name)
    executable_path (out->path, sizeof out->path);
  else if (*name == '/' || !has_slash (name))
    // An absolute path, or no file at all: the vDSO's "linux-vdso.so.1".
    format (out->path, sizeof out->path, "%s", name);
  else if (mapped_file_path (first_segment (info), out->path,
                             sizeof out->path))
    ; // dlopen ("./plugin.so"): the loader keeps the name as given.
  else if (getcwd (cwd, sizeof cwd))
    format (out->path, sizeof out->path, "%s/%s", cwd,
            name[0] == '.' && name[1] == '/' ? name + 2 : name);
  else
    format (out->path, sizeof out->path, "%s", name);
  internal_memset (out->build_id, 0, sizeof out->build_id);
  out->build_id_size = module_build_id (info, out->build_id);
  out->num_segments = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) &ph = info->dlpi_phdr[i];
      if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)
          || out->num_segments == ModuleRecord::kMaxSegments)
        continue;
      ModuleRecord::Segment &s = out->segments[out->num_segments++];
      s.start = info->dlpi_addr + ph.p_vaddr;
      s.end = s.start + ph.p_memsz;
      s.offset = ph.p_offset;
    }
}

void
modules_after_fork_child ()
{
  // A thread of the parent may have been inside dlclose: the child has
  // only this thread, and the next dlclose takes a fresh snapshot.
  dlclose_lock.unlock ();
}

void
for_each_closed_module (void (*fn) (const ModuleRecord &m, void *arg),
                        void *arg)
{
  uint32_t n = __atomic_load_n (&closed_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++)
    fn (closed[i], arg);
}

} // namespace memprof

using namespace memprof;

// The modules a dlclose unmaps are described before it and compared
// after it, under one lock, so two dlcloses never confuse each other.
extern "C" MEMPROF_EXPORT int
dlclose (void *handle)
{
  int (*real) (void *) = next_fn (real_dlclose, "dlclose");
  if (!real)
    return -1;
  LockGuard g (dlclose_lock);
  static Snapshot before;
  bool watched = take_snapshot (before);
  int r = real (handle);
  if (watched && r == 0)
    note_unmapped (before);
  return r;
}
