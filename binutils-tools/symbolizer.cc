// Offline symbolization with libdw.
#include "symbolizer.h"

#include "site_types.h"

#include "diag.h"
#include "dwarf_names.h"
#include "scope_index.h"

#include "memprof/type_table.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>
#include <shared_mutex>
#include <unordered_map>

namespace memprof {

#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

struct LoadedModule
{
  // Cache hits share the lock; libdw work (single-threaded) takes it alone.
  std::shared_mutex mu;
  std::string path;             // As recorded: the frames' module.
  Dwfl_Callbacks callbacks;
  char *debuginfo_path = nullptr;
  Dwfl *dwfl = nullptr;
  Dwfl_Module *mod = nullptr;
  bool usable = false;
  // It has DWARF (its own or a separate debug file found): without, only
  // its symbol table can name its frames, and a stripped executable's
  // names none.
  bool has_dwarf = false;
  ModuleProblem problem;
  std::unordered_map<uint64_t, std::vector<Frame>> cache;
  std::unordered_map<uint64_t, std::unique_ptr<ScopeIndex>> scope_indexes;
  FunctionNames names;
  std::unique_ptr<SiteTypes> site_types;
  bool site_types_read = false;

  ~LoadedModule ()
  {
    if (dwfl)
      dwfl_end (dwfl);
    free (debuginfo_path);
  }
};

const ProfileMap::Range *
ProfileMap::find (uint64_t pc, uint64_t generation) const
{
  // A closed module held PC for this stack when it was unloaded after
  // the stack's generation began; the earliest unloaded such one was
  // mapped there then.
  const Range *closed = nullptr;
  for (size_t i = num_loaded; i < ranges.size (); i++)
    {
      const Range &r = ranges[i];
      if (pc >= r.start && pc < r.end && generation < r.unload_generation
          && (!closed || r.unload_generation < closed->unload_generation))
        closed = &r;
    }
  if (closed)
    return closed;
  auto end = ranges.begin () + num_loaded;
  auto it = std::upper_bound (ranges.begin (), end, pc,
                              [] (uint64_t v, const Range &r) {
                                return v < r.start;
                              });
  if (it == ranges.begin ())
    return nullptr;
  --it;
  return pc < it->end ? &*it : nullptr;
}

// The GNU build id of the ELF file at PATH, or "" when it has none or
// cannot be read.
static std::string
file_build_id (const std::string &path)
{
  int fd = open (path.c_str (), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return "";
  std::string id;
  Elf *elf = elf_begin (fd, ELF_C_READ_MMAP, nullptr);
  if (elf)
    {
      const void *p = nullptr;
      ssize_t n = dwelf_elf_gnu_build_id (elf, &p);
      if (n > 0)
        id.assign (static_cast<const char *> (p), n);
      elf_end (elf);
    }
  close (fd);
  return id;
}

static std::string
base_name (const std::string &path)
{
  size_t slash = path.rfind ('/');
  return slash == std::string::npos ? path : path.substr (slash + 1);
}

Symbolizer::Symbolizer (const SymbolizerOptions &opts) : opts_ (opts)
{
  elf_version (EV_CURRENT);
  // Build-id lookups use the absolute elements; the empty and ".debug"
  // elements find debuglink files beside the binary.
  debuginfo_path_ = ":.debug:/usr/lib/debug";
  for (const std::string &d : opts_.debug_dirs)
    debuginfo_path_ += ":" + d;
  for (const std::string &b : opts_.binaries)
    binary_ids_.emplace_back (b, file_build_id (b));
}

Symbolizer::~Symbolizer () = default;

std::string
Symbolizer::choose_file (const std::string &recorded_path,
                         const std::string &build_id) const
{
  if (!build_id.empty ())
    for (const auto &b : binary_ids_)
      if (b.second == build_id)
        return b.first;
  for (const auto &b : binary_ids_)
    if (base_name (b.first) == base_name (recorded_path))
      return b.first;
  return recorded_path;
}

LoadedModule *
Symbolizer::load (const std::string &recorded_path,
                  const std::string &build_id, ModuleProblem &problem)
{
  std::lock_guard<std::mutex> lock (mu_);
  auto key = std::make_pair (recorded_path, build_id);
  auto it = modules_.find (key);
  if (it != modules_.end ())
    {
      problem = it->second->problem;
      return it->second.get ();
    }
  auto m = std::make_unique<LoadedModule> ();
  m->path = recorded_path;
  m->problem.module = recorded_path;
  std::string file = choose_file (recorded_path, build_id);
  m->debuginfo_path = strdup (debuginfo_path_.c_str ());
  m->callbacks = Dwfl_Callbacks{};
  m->callbacks.find_elf = dwfl_build_id_find_elf;
  m->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  m->callbacks.section_address = dwfl_offline_section_address;
  m->callbacks.debuginfo_path = &m->debuginfo_path;
  m->dwfl = dwfl_begin (&m->callbacks);
  struct stat st;
  if (stat (file.c_str (), &st) != 0 || access (file.c_str (), R_OK) != 0)
    m->problem.message = format ("cannot open %s: %s", file.c_str (),
                                 std::strerror (errno));
  else if (!S_ISREG (st.st_mode))
    // A profile may name anything; never open a FIFO or a device.
    m->problem.message = format ("%s is not a regular file", file.c_str ());
  else if (m->dwfl)
    {
      dwfl_report_begin (m->dwfl);
      // Base 0 with p_vaddr added places the module at its link-time
      // addresses; PCs are rebased by the recorded load address.
      m->mod = dwfl_report_elf (m->dwfl, base_name (recorded_path).c_str (),
                                file.c_str (), -1, 0, true);
      dwfl_report_end (m->dwfl, nullptr, nullptr);
      if (!m->mod)
        m->problem.message = format ("cannot read %s: %s", file.c_str (),
                                     dwfl_errmsg (-1));
      else
        {
          const unsigned char *bits = nullptr;
          GElf_Addr vaddr;
          int n = dwfl_module_build_id (m->mod, &bits, &vaddr);
          std::string have = n > 0 ? std::string ((const char *) bits, n) : "";
          if (!build_id.empty () && have != build_id)
            {
              m->problem.build_id_mismatch = true;
              m->problem.message
                = format ("build id of %s is %s, the profile recorded %s",
                          file.c_str (),
                          have.empty () ? "missing"
                                        : hex_build_id (have).c_str (),
                          hex_build_id (build_id).c_str ());
            }
          else
            {
              m->usable = true;
              Dwarf_Addr bias;
              m->has_dwarf = dwfl_module_getdwarf (m->mod, &bias) != nullptr;
            }
        }
    }
  problem = m->problem;
  LoadedModule *raw = m.get ();
  modules_.emplace (key, std::move (m));
  return raw;
}

Dwarf *
Symbolizer::module_dwarf (const std::string &path, uint64_t &bias,
                          std::string &problem)
{
  // The module as symbolization opened it (its build id checked, a
  // --binary matched by build id), else opened now by its path.
  LoadedModule *m = nullptr;
  {
    std::lock_guard<std::mutex> lock (mu_);
    for (auto &e : modules_)
      if (e.first.first == path && e.second->usable)
        {
          m = e.second.get ();
          break;
        }
  }
  if (!m)
    {
      ModuleProblem p;
      m = load (path, "", p);
      if (!m->usable)
        {
          problem = p.message;
          return nullptr;
        }
    }
  std::unique_lock<std::shared_mutex> lock (m->mu);
  Dwarf_Addr b = 0;
  Dwarf *dw = dwfl_module_getdwarf (m->mod, &b);
  if (!dw)
    {
      problem = "no debug info";
      return nullptr;
    }
  bias = b;
  return dw;
}

std::unique_ptr<ProfileMap>
Symbolizer::map_profile (const RawProfile &prof,
                         std::vector<ModuleProblem> &problems)
{
  auto map = std::make_unique<ProfileMap> ();
  map->paths.reserve (prof.segments.size ());
  for (const RawSegment &s : prof.segments)
    {
      map->paths.push_back (s.path);
      map->ranges.push_back ({ s.start, s.end, s.load_address, nullptr,
                               nullptr, map->ranges.size (),
                               s.unload_generation });
    }
  for (size_t i = 0; i < map->ranges.size (); i++)
    map->ranges[i].path = &map->paths[i];
  auto closed = std::stable_partition (
    map->ranges.begin (), map->ranges.end (),
    [] (const ProfileMap::Range &r) { return r.unload_generation == 0; });
  map->num_loaded = closed - map->ranges.begin ();
  std::sort (map->ranges.begin (), closed,
             [] (const ProfileMap::Range &a, const ProfileMap::Range &b) {
               return a.start < b.start;
             });
  // Open only modules some stack uses: an unused vdso is no problem.
  std::vector<bool> used (map->ranges.size (), false);
  for (const RawStacks::Entry &st : prof.stacks.entries ())
    for (uint64_t k = 0; k < st.frames; k++)
      if (const ProfileMap::Range *r = map->find (st.pc (k), st.generation))
        used[r - map->ranges.data ()] = true;
  std::vector<std::string> reported;
  for (size_t i = 0; i < map->ranges.size (); i++)
    {
      if (!used[i])
        continue;
      ProfileMap::Range &r = map->ranges[i];
      ModuleProblem problem;
      LoadedModule *m = load (*r.path, prof.segments[r.segment].build_id,
                              problem);
      bool executable = *r.path == prof.executable;
      if (m->usable)
        {
          r.module = m;
          // The program itself stripped (a release build's -s): its
          // frames become bare addresses, which would otherwise come
          // with no word of why.  (A system library without debug info
          // is the rule, and its symbol table names its functions.)
          if (executable && !m->has_dwarf
              && std::find (reported.begin (), reported.end (), *r.path)
                   == reported.end ())
            {
              reported.push_back (*r.path);
              problem.is_executable = true;
              problem.message
                = "it has no debug info (stripped? give the unstripped "
                  "binary with --binary, or its debug file with "
                  "--debug-file-directory)";
              problems.push_back (problem);
            }
        }
      else if (std::find (reported.begin (), reported.end (), *r.path)
               == reported.end ())
        {
          reported.push_back (*r.path);
          problem.is_executable = executable;
          problems.push_back (problem);
        }
    }
  return map;
}

static uint64_t
die_udata (Dwarf_Die *die, unsigned int at)
{
  Dwarf_Attribute attr;
  Dwarf_Word v = 0;
  if (dwarf_attr (die, at, &attr) && dwarf_formudata (&attr, &v) == 0)
    return v;
  return 0;
}

// FILE as an absolute path, its "." and "dir/.." taken out: an
// out-of-tree build (VPATH, CMake, Meson) names its sources
// "/build/../src/f.c", and two build directories of one source tree must
// give one position (--diff, merging rebuilt programs).  Relative
// names (glibc's CUs have a relative DW_AT_comp_dir:
// "./csu/../csu/libc-start.c") stay as written.
static std::string
absolute_path (const char *file, Dwarf_Die *cu)
{
  if (!file)
    return "";
  if (file[0] == '/')
    return normalize_path (file);
  Dwarf_Attribute attr;
  const char *dir = nullptr;
  if (cu && dwarf_attr (cu, DW_AT_comp_dir, &attr))
    dir = dwarf_formstring (&attr);
  if (!dir || !*dir)
    return file;
  std::string path = std::string (dir) + "/" + file;
  return dir[0] == '/' ? normalize_path (path) : path;
}

// Symbolize ADDR (link-time) in M; M's lock is held.
static void
symbolize_in_module (LoadedModule &m, uint64_t addr, std::vector<Frame> &out)
{
  size_t first = out.size ();
  Frame pos;                    // Position of the next frame to emit.
  pos.module = m.path;
  pos.address = addr;
  Dwarf_Addr bias = 0;
  Dwarf_Die *cu = dwfl_module_addrdie (m.mod, addr, &bias);
  Dwarf_Addr row = 0;           // Where the line table's row starts.
  if (Dwfl_Line *line = dwfl_module_getsrc (m.mod, addr))
    {
      int lineno = 0, col = 0;
      const char *file = dwfl_lineinfo (line, &row, &lineno, &col, nullptr,
                                        nullptr);
      pos.file = absolute_path (file, cu);
      pos.line = lineno > 0 ? lineno : 0;
      pos.column = col > 0 ? col : 0;
      Dwarf_Addr lbias;
      if (Dwarf_Line *dl = dwfl_dwarf_line (line, &lbias))
        {
          unsigned int disc = 0;
          if (dwarf_linediscriminator (dl, &disc) == 0)
            pos.discriminator = disc;
        }
    }
  if (cu)
    {
      auto &index = m.scope_indexes[dwarf_dieoffset (cu)];
      if (!index)
        index = std::make_unique<ScopeIndex> (cu);
      std::vector<Dwarf_Die> scopes = index->scopes_at (addr - bias);
      Dwarf_Files *files = nullptr;
      size_t nfiles = 0;
      bool have_files = dwarf_getsrcfiles (cu, &files, &nfiles) == 0;
      for (Dwarf_Die &scope : scopes)
        {
          int tag = dwarf_tag (&scope);
          Frame f = pos;
          const char *name = m.names.frame_name (&scope);
          f.function = name ? name : "";
          int decl_line = 0;
          if (dwarf_decl_line (&scope, &decl_line) == 0 && decl_line > 0)
            f.function_line = decl_line;
          f.inlined = tag == DW_TAG_inlined_subroutine;
          out.push_back (f);
          if (tag == DW_TAG_subprogram)
            break;
          // The call site of this inlined body is the next frame out.
          uint64_t call_file = die_udata (&scope, DW_AT_call_file);
          const char *cf = nullptr;
          if (have_files && call_file < nfiles)
            cf = dwarf_filesrc (files, call_file, nullptr, nullptr);
          pos.file = absolute_path (cf, cu);
          pos.line = die_udata (&scope, DW_AT_call_line);
          pos.column = die_udata (&scope, DW_AT_call_column);
          pos.discriminator = die_udata (&scope, DW_AT_GNU_discriminator);
        }
    }
  if (out.size () == first || out[first].function.empty ())
    {
      // No DWARF here: the ELF symbol still names the function.  A line
      // table row that starts before the symbol is the last line of the
      // code before it, not of this function (crt1.o's _start, built
      // without debug info, placed after a unit's cold code: duktape's
      // _start read duk_heap_memory.c:265).
      out.resize (first);
      GElf_Off offset = 0;
      GElf_Sym sym;
      const char *name = dwfl_module_addrinfo (m.mod, addr, &offset, &sym,
                                               nullptr, nullptr, nullptr);
      Frame f = pos;
      f.function = name ? name : "";
      if (f.function.empty () || row < addr - offset)
        f.file.clear (), f.line = f.column = f.discriminator = 0;
      out.push_back (f);
    }
}

void
Symbolizer::symbolize (const ProfileMap &map, uint64_t pc,
                       uint64_t generation, std::vector<Frame> &out)
{
  const ProfileMap::Range *r = map.find (pc, generation);
  if (!r)
    {
      Frame f;
      f.address = pc;
      out.push_back (f);
      return;
    }
  uint64_t addr = pc - r->load_address;
  if (!r->module)
    {
      Frame f;
      f.module = *r->path;
      f.address = addr;
      out.push_back (f);
      return;
    }
  LoadedModule &m = *r->module;
  {
    std::shared_lock<std::shared_mutex> lock (m.mu);
    auto it = m.cache.find (addr);
    if (it != m.cache.end ())
      {
        out.insert (out.end (), it->second.begin (), it->second.end ());
        return;
      }
  }
  std::unique_lock<std::shared_mutex> lock (m.mu);
  auto it = m.cache.find (addr);
  if (it == m.cache.end ())
    {
      std::vector<Frame> frames;
      symbolize_in_module (m, addr, frames);
      it = m.cache.emplace (addr, std::move (frames)).first;
    }
  out.insert (out.end (), it->second.begin (), it->second.end ());
}

// M's type table from its ELF file's section; M's lock is held.
static std::unique_ptr<SiteTypes>
read_site_types (LoadedModule &m)
{
  GElf_Addr bias;
  Elf *elf = dwfl_module_getelf (m.mod, &bias);
  size_t shstrndx;
  if (!elf || elf_getshdrstrndx (elf, &shstrndx) != 0)
    return nullptr;
  for (Elf_Scn *scn = elf_nextscn (elf, nullptr); scn;
       scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr shdr;
      if (!gelf_getshdr (scn, &shdr) || shdr.sh_type != SHT_PROGBITS)
        continue;
      const char *name = elf_strptr (elf, shstrndx, shdr.sh_name);
      if (!name || std::strcmp (name, MEMPROF_TYPE_SECTION) != 0)
        continue;
      Elf_Data *data = elf_getdata (scn, nullptr);
      if (!data || !data->d_buf)
        return nullptr;
      auto t = std::make_unique<SiteTypes> ();
      t->parse ((const char *) data->d_buf, data->d_size);
      return t;
    }
  return nullptr;
}

const SiteTypes *
Symbolizer::site_types (const ProfileMap &map, uint64_t pc,
                        uint64_t generation)
{
  const ProfileMap::Range *r = map.find (pc, generation);
  if (!r || !r->module)
    return nullptr;
  LoadedModule &m = *r->module;
  std::unique_lock<std::shared_mutex> lock (m.mu);
  if (!m.site_types_read)
    {
      m.site_types = read_site_types (m);
      m.site_types_read = true;
    }
  return m.site_types.get ();
}

} // namespace memprof
