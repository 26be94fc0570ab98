/* A stand-in profiler runtime for the tools' tests: test programs call
   rawgen_alloc () where a program would call malloc, with the measures
   they want recorded, and rawgen_write () to write a raw profile in the
   format of raw_format.h.  The stacks, segments and build ids are real
   (backtrace, dl_iterate_phdr), so symbolization is tested against the
   real binaries while every count is known exactly.  It writes version 1
   of the format (no module generations): every test built on it also
   checks that the tools still read that version; profiles of the real
   runtime are of the current version.  */
#ifndef RAWGEN_H
#define RAWGEN_H

#define _GNU_SOURCE 1
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memprof/raw_format.h"

#define RAWGEN_MAX 4096
#define RAWGEN_DEPTH 32

static struct memprof_raw_mib rawgen_mibs[RAWGEN_MAX];
static uint64_t rawgen_pcs[RAWGEN_MAX][RAWGEN_DEPTH];
static int rawgen_depth[RAWGEN_MAX];
static int rawgen_n;

/* Record one allocation context: the caller of rawgen_alloc is frame 0.  */
__attribute__ ((noinline)) void
rawgen_alloc (uint64_t size, uint64_t accesses, uint64_t lifetime,
              uint64_t percent_utilized)
{
  void *buf[RAWGEN_DEPTH + 1];
  int n = backtrace (buf, RAWGEN_DEPTH + 1);
  int i = rawgen_n++;
  struct memprof_raw_mib *m = &rawgen_mibs[i];
  memset (m, 0, sizeof *m);
  uint64_t h = 1469598103934665603ULL;
  rawgen_depth[i] = n - 1;
  for (int k = 1; k < n; k++)
    {
      rawgen_pcs[i][k - 1] = (uint64_t) (uintptr_t) buf[k] - 1;
      h = (h ^ rawgen_pcs[i][k - 1]) * 1099511628211ULL;
    }
  m->stack_id = h;
  m->alloc_count = 1;
  m->total_access_count = m->min_access_count = m->max_access_count = accesses;
  m->total_size = m->min_size = m->max_size = size;
  m->total_lifetime = m->min_lifetime = m->max_lifetime = lifetime;
  m->total_percent_utilized = m->min_percent_utilized
    = m->max_percent_utilized = percent_utilized;
  m->num_same_alloc_cpu = 1;
  m->num_same_dealloc_cpu = 1;
}

/* Further u64 metadata entries (MEMPROF_META_*) rawgen_write adds.  */
static uint32_t rawgen_meta_tags[16];
static uint64_t rawgen_meta_values[16];
static int rawgen_nmeta;

static void
rawgen_meta (uint32_t tag, uint64_t value)
{
  rawgen_meta_tags[rawgen_nmeta] = tag;
  rawgen_meta_values[rawgen_nmeta++] = value;
}

static FILE *rawgen_out;
static uint64_t rawgen_pos;

static void
rawgen_put (const void *p, size_t n)
{
  fwrite (p, 1, n, rawgen_out);
  rawgen_pos += n;
}
static void
rawgen_u64 (uint64_t v)
{
  rawgen_put (&v, 8);
}
static void
rawgen_pad (void)
{
  static const char zero[8];
  if (rawgen_pos % 8)
    rawgen_put (zero, 8 - rawgen_pos % 8);
}

struct rawgen_seg
{
  struct memprof_raw_segment s;
  char path[512];
};
static struct rawgen_seg rawgen_segs[64];
static int rawgen_nsegs;

static int
rawgen_phdr (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  uint8_t id[MEMPROF_BUILD_ID_MAX];
  uint32_t id_size = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      const char *p = (const char *) (info->dlpi_addr + ph->p_vaddr);
      const char *end = p + ph->p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *nh = (const ElfW (Nhdr) *) p;
          const char *name = p + sizeof *nh;
          const char *desc = name + ((nh->n_namesz + 3) & ~3u);
          if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4
              && memcmp (name, "GNU", 4) == 0
              && nh->n_descsz <= MEMPROF_BUILD_ID_MAX)
            {
              id_size = nh->n_descsz;
              memcpy (id, desc, id_size);
            }
          p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
  for (int i = 0; i < info->dlpi_phnum && rawgen_nsegs < 64; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
        continue;
      struct rawgen_seg *g = &rawgen_segs[rawgen_nsegs++];
      memset (g, 0, sizeof *g);
      g->s.start = info->dlpi_addr + ph->p_vaddr;
      g->s.end = g->s.start + ph->p_memsz;
      g->s.offset = ph->p_offset;
      g->s.load_address = info->dlpi_addr;
      g->s.build_id_size = id_size;
      memcpy (g->s.build_id, id, id_size);
      if (info->dlpi_name && info->dlpi_name[0])
        snprintf (g->path, sizeof g->path, "%s", info->dlpi_name);
      else
        {
          ssize_t n = readlink ("/proc/self/exe", g->path, sizeof g->path - 1);
          g->path[n > 0 ? n : 0] = 0;
        }
      g->s.path_length = strlen (g->path);
    }
  return 0;
}

/* Write the recorded contexts to PATH as a raw profile.  */
static void
rawgen_write (const char *path)
{
  rawgen_nsegs = 0;
  dl_iterate_phdr (rawgen_phdr, NULL);
  rawgen_out = fopen (path, "wb");
  if (!rawgen_out)
    {
      perror (path);
      exit (1);
    }
  rawgen_pos = 0;
  struct memprof_raw_header h;
  memset (&h, 0, sizeof h);
  rawgen_put (&h, sizeof h);
  /* Metadata: executable and pid, and those of rawgen_meta.  */
  h.metadata_offset = rawgen_pos;
  char exe[512];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  rawgen_u64 (2 + rawgen_nmeta);
  uint32_t tl[2] = { MEMPROF_META_EXECUTABLE, (uint32_t) strlen (exe) };
  rawgen_put (tl, 8);
  rawgen_put (exe, tl[1]);
  rawgen_pad ();
  uint32_t tp[2] = { MEMPROF_META_PID, 8 };
  rawgen_put (tp, 8);
  rawgen_u64 ((uint64_t) getpid ());
  for (int i = 0; i < rawgen_nmeta; i++)
    {
      uint32_t tv[2] = { rawgen_meta_tags[i], 8 };
      rawgen_put (tv, 8);
      rawgen_u64 (rawgen_meta_values[i]);
    }
  h.segment_offset = rawgen_pos;
  rawgen_u64 (rawgen_nsegs);
  for (int i = 0; i < rawgen_nsegs; i++)
    {
      rawgen_put (&rawgen_segs[i].s, sizeof rawgen_segs[i].s);
      rawgen_put (rawgen_segs[i].path, rawgen_segs[i].s.path_length);
      rawgen_pad ();
    }
  h.mib_offset = rawgen_pos;
  rawgen_u64 (rawgen_n);
  rawgen_u64 (sizeof (struct memprof_raw_mib));
  for (int i = 0; i < rawgen_n; i++)
    rawgen_put (&rawgen_mibs[i], sizeof rawgen_mibs[i]);
  h.stack_offset = rawgen_pos;
  /* One stack entry per distinct stack id.  */
  int nstacks = 0;
  for (int i = 0; i < rawgen_n; i++)
    {
      int seen = 0;
      for (int k = 0; k < i; k++)
        seen |= rawgen_mibs[k].stack_id == rawgen_mibs[i].stack_id;
      nstacks += !seen;
    }
  rawgen_u64 (nstacks);
  for (int i = 0; i < rawgen_n; i++)
    {
      int seen = 0;
      for (int k = 0; k < i; k++)
        seen |= rawgen_mibs[k].stack_id == rawgen_mibs[i].stack_id;
      if (seen)
        continue;
      rawgen_u64 (rawgen_mibs[i].stack_id);
      rawgen_u64 (rawgen_depth[i]);
      rawgen_put (rawgen_pcs[i], 8 * rawgen_depth[i]);
    }
  h.magic = MEMPROF_RAW_MAGIC;
  h.version = 1;
  h.total_size = rawgen_pos;
  fseek (rawgen_out, 0, SEEK_SET);
  fwrite (&h, sizeof h, 1, rawgen_out);
  fclose (rawgen_out);
}

#endif
