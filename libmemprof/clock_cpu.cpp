// Time and CPU id, read twice per allocation (malloc and free), so they
// must cost a few nanoseconds, not a system call.
//
// Time: CLOCK_MONOTONIC_COARSE is served by the vDSO without reading the
// TSC: one shared-page read.  Its resolution is the kernel tick (1-4 ms),
// enough for lifetimes in ms; monotonic so lifetimes are never negative.
// The vDSO's __vdso_clock_gettime is called directly (found through the
// auxiliary vector, as glibc finds it), not through glibc's
// clock_gettime, whose wrapper was a fifth of the clock's cost; the
// value is the same.  Without a vDSO (or without that symbol in it) the
// runtime calls clock_gettime.
//
// CPU: glibc 2.35+ registers an rseq area per thread, in which the kernel
// keeps cpu_id current; reading it is one load from the thread pointer.
// When rseq is unavailable (__rseq_size == 0, older glibc, or
// GLIBC_TUNABLES=glibc.pthread.rseq=0), fall back to sched_getcpu, which
// uses the vDSO's getcpu.

#include "clock_cpu.h"

#include <elf.h>
#include <link.h>
#include <sched.h>
#include <sys/auxv.h>

extern "C" {
extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
}

namespace memprof {

int (*coarse_gettime) (clockid_t, struct timespec *) = clock_gettime;
uint64_t clock_zero_ms;   // CLOCK_MONOTONIC_COARSE ms at the clock's zero.
// Offset of struct rseq's cpu_id from the thread pointer, and whether
// the rseq area exists at all: looked up once, in clock_init.
ptrdiff_t rseq_cpu_offset;
bool rseq_known;

namespace {

uint64_t
coarse_ms ()
{
  struct timespec ts;
  coarse_gettime (CLOCK_MONOTONIC_COARSE, &ts);
  return (uint64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// The address of the vDSO's function NAME, or null.  The vDSO is an ELF
// shared object mapped by the kernel; its symbols are found through its
// dynamic section's hash table (the kernel links it with both hash
// styles; the SysV one gives the symbol count directly).
void *
vdso_function (const char *name)
{
  uintptr_t base = getauxval (AT_SYSINFO_EHDR);
  if (!base)
    return nullptr;
  const ElfW (Ehdr) *eh = (const ElfW (Ehdr) *) base;
  const ElfW (Phdr) *ph = (const ElfW (Phdr) *) (base + eh->e_phoff);
  uintptr_t load = 0;
  bool load_seen = false;
  const ElfW (Dyn) *dyn = nullptr;
  for (int i = 0; i < eh->e_phnum; i++)
    if (ph[i].p_type == PT_LOAD && !load_seen)
      {
        load = base + ph[i].p_offset - ph[i].p_vaddr;
        load_seen = true;
      }
    else if (ph[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW (Dyn) *) (base + ph[i].p_offset);
  if (!load_seen || !dyn)
    return nullptr;
  const ElfW (Sym) *syms = nullptr;
  const char *strings = nullptr;
  const uint32_t *hash = nullptr;
  for (; dyn->d_tag != DT_NULL; dyn++)
    if (dyn->d_tag == DT_SYMTAB)
      syms = (const ElfW (Sym) *) (load + dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_STRTAB)
      strings = (const char *) (load + dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_HASH)
      hash = (const uint32_t *) (load + dyn->d_un.d_ptr);
  if (!syms || !strings || !hash)
    return nullptr;
  for (uint32_t i = 0; i < hash[1]; i++)
    if (ELF64_ST_TYPE (syms[i].st_info) == STT_FUNC
        && syms[i].st_shndx != SHN_UNDEF
        && internal_strcmp (strings + syms[i].st_name, name) == 0)
      return (void *) (load + syms[i].st_value);
  return nullptr;
}

} // namespace

uint64_t
unix_time_ms ()
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t
clock_init ()
{
  using Gettime = int (*) (clockid_t, struct timespec *);
  if (Gettime f = (Gettime) vdso_function ("__vdso_clock_gettime"))
    {
      // Keep it only if it answers the coarse clock as glibc does.
      struct timespec ours, theirs;
      if (f (CLOCK_MONOTONIC_COARSE, &ours) == 0
          && clock_gettime (CLOCK_MONOTONIC_COARSE, &theirs) == 0
          && ours.tv_sec <= theirs.tv_sec && theirs.tv_sec - ours.tv_sec <= 1)
        coarse_gettime = f;
    }
  // Read both clocks back to back: the realtime stamp of the zero.
  uint64_t real = unix_time_ms ();
  clock_zero_ms = coarse_ms ();
  if (&__rseq_size && __rseq_size >= 8)
    {
      // struct rseq: u32 cpu_id_start, u32 cpu_id (negative when the
      // thread is not registered).
      rseq_cpu_offset = __rseq_offset + 4;
      rseq_known = true;
    }
  return real;
}

uint32_t
current_cpu_fallback ()
{
  int cpu = sched_getcpu ();
  return cpu < 0 ? 0 : (uint32_t) cpu;
}

} // namespace memprof
