// The dump's calibration of sampled records to the exact site tallies
// (see site_calibration.h).

#include "site_calibration.h"
#include "internal.h"
#include "sampler.h"
#include "site_tally.h"
#include "stack_depot.h"

namespace memprof {

namespace {

// The scaled fields: the additive ones a block's life fills.  The
// first two are constrained to the site's exact totals.
uint64_t memprof_raw_mib::*const kScaled[] = {
  &memprof_raw_mib::alloc_count,
  &memprof_raw_mib::total_size,
  &memprof_raw_mib::total_access_count,
  &memprof_raw_mib::total_lifetime,
  &memprof_raw_mib::num_migrated_cpu,
  &memprof_raw_mib::num_lifetime_overlaps,
  &memprof_raw_mib::num_same_alloc_cpu,
  &memprof_raw_mib::num_same_dealloc_cpu,
  &memprof_raw_mib::total_percent_utilized,
};
constexpr uint32_t kFields = sizeof kScaled / sizeof kScaled[0];
constexpr uint32_t kCount = 0, kBytes = 1, kAccesses = 2;

struct Site
{
  uintptr_t pc;              // 0: empty.
  uint64_t exact_count, exact_bytes;
  // Of those, the weight-1 blocks' (certainty units, never scaled).
  uint64_t certain_count, certain_bytes, certain_records;
  uint64_t records, done;
  // Over the site's records as sampled: allocations A, bytes S, and
  // sum of S_c^2 / A_c; the smallest and largest mean size.
  uint64_t count, bytes;
  double size_moment, min_mean, max_mean;
  // The record factor g = alpha + beta * mean size (regression), or
  // alpha for counts and beta for bytes and accesses (ratios).
  bool regression;
  double alpha, beta;
  double offset;             // Uniform in [0, 1): the rounding's.
  // Sum over the records of max (0, g_c A_c - 1): what the records'
  // scaled counts hold beyond the one allocation each keeps.
  double excess;
  double cum[kFields];       // Running scaled sums, before rounding.
  uint64_t out[kFields];     // ... and after.
  // Taken off records whose calibrated mean size left their sampled
  // min..max (clamp_mean); the allocations go to the site's records that
  // have room for more (give_room), what none has room for and the bytes
  // go unattributed.
  uint64_t clamped_count, clamped_bytes;
  uint64_t room;             // Allocations the records can still take.
  double given_cum;          // Running shares given, before rounding.
  uint64_t given;            // ... and after.
};

struct SiteMap
{
  Site *sites;
  uint64_t mask;
  uint64_t lost_count, lost_bytes;
};

// Where KEY's probe starts in a table of the dump's own (the site map,
// certain_pair's), before masking.
inline uint64_t
home_slot (uint64_t key)
{
  return (key * 0x9e3779b97f4a7c15ULL) >> 20;
}

Site *
find (SiteMap &m, uintptr_t pc, bool insert)
{
  uint64_t i = home_slot (pc);
  for (;; i++)
    {
      Site &s = m.sites[i & m.mask];
      if (s.pc == pc)
        return &s;
      if (s.pc == 0)
        {
          if (!insert)
            return nullptr;
          s.pc = pc;
          s.min_mean = 1e300;
          return &s;
        }
    }
}

uintptr_t
frame0 (const memprof_raw_mib &mib)
{
  const uintptr_t *pcs;
  uint32_t n = depot_get ((uint32_t) mib.stack_id & ~kCertainContext, &pcs);
  return n ? pcs[0] & ~MEMPROF_RAW_PC_FLAGS : 0;
}

inline bool
certain (const memprof_raw_mib &mib)
{
  return ((uint32_t) mib.stack_id & kCertainContext) != 0;
}

void
add_record (Site &s, const memprof_raw_mib &mib)
{
  if (certain (mib))
    {
      s.certain_records++;
      s.certain_count += mib.alloc_count;
      s.certain_bytes += mib.total_size;
      return;
    }
  s.records++;
  s.count += mib.alloc_count;
  s.bytes += mib.total_size;
  if (!mib.alloc_count)
    return;
  double mean = (double) mib.total_size / (double) mib.alloc_count;
  s.size_moment += mean * (double) mib.total_size;
  if (mean < s.min_mean)
    s.min_mean = mean;
  if (mean > s.max_mean)
    s.max_mean = mean;
}

// Whether record MIB of site S (null: none) is scaled.
inline bool
scaled (const Site *s, const memprof_raw_mib &mib)
{
  return s && !certain (mib);
}

void
add_tally (uintptr_t pc, uint64_t count, uint64_t bytes, void *arg)
{
  SiteMap &m = *(SiteMap *) arg;
  Site *s = find (m, pc, false);
  if (s)
    {
      s->exact_count += count;
      s->exact_bytes += bytes;
    }
  else
    {
      m.lost_count += count;
      m.lost_bytes += bytes;
    }
}

// What S's sampled records are scaled to: its tally less its weight-1
// blocks.
inline uint64_t
sampled_count (const Site &s)
{
  return s.exact_count > s.certain_count ? s.exact_count - s.certain_count
                                         : 0;
}

inline uint64_t
sampled_bytes (const Site &s)
{
  return s.exact_bytes > s.certain_bytes ? s.exact_bytes - s.certain_bytes
                                         : 0;
}

// Whether S's records can be scaled to its tally: each record stands for
// at least one real allocation.
inline bool
calibratable (const Site &s)
{
  return s.count && sampled_count (s) >= s.records;
}

// Choose S's factors.  The regression estimator: one factor per record
// c, g_c = alpha + beta * m_c (m_c its mean size), with
//   sum g_c A_c = N  and  sum g_c S_c = B,
// i.e. alpha A + beta S = N, alpha S + beta Q = B (Q = sum S_c^2/A_c):
// every field of a record scales alike, so its means (size, lifetime,
// accesses per block) stay as sampled while the site's counts and bytes
// become exact.  When the records' mean sizes are (nearly) all equal or
// a factor would not be positive, the ratios N/A for the counts and
// B/S for bytes and accesses instead.  Also when the regression tilts
// the factors more than kMaxTilt-fold from the smallest mean size to the
// largest: a record whose mean stands far from the others' (a few
// 400 KB blocks at a site of 4 KB ones) would take up the whole error
// of the site's small-block estimate, its blocks multiplied tenfold
// (at 4, still fivefold in one seed of twelve).
constexpr double kMaxTilt = 2;

void
choose_factors (Site &s)
{
  double a = (double) s.count, b = (double) s.bytes, q = s.size_moment;
  double n = (double) sampled_count (s), bytes = (double) sampled_bytes (s);
  double det = a * q - b * b;
  s.regression = false;
  if (s.records > 1 && s.max_mean > s.min_mean && det > 1e-9 * a * q)
    {
      double alpha = (n * q - bytes * b) / det;
      double beta = (a * bytes - b * n) / det;
      double g_min = alpha + beta * s.min_mean;
      double g_max = alpha + beta * s.max_mean;
      if (g_min > 0 && g_max > 0 && g_max <= kMaxTilt * g_min
          && g_min <= kMaxTilt * g_max)
        {
          s.regression = true;
          s.alpha = alpha;
          s.beta = beta;
          return;
        }
    }
  s.alpha = n / a;
  s.beta = b ? bytes / b : 1;
}

// The factors of record MIB of S: for counts, for bytes and accesses.
inline void
record_factors (const Site &s, const memprof_raw_mib &mib, double *g_count,
                double *g_bytes)
{
  *g_count = s.alpha;
  *g_bytes = s.beta;
  if (s.regression && mib.alloc_count)
    *g_count = *g_bytes = s.alpha + s.beta * ((double) mib.total_size
                                              / (double) mib.alloc_count);
}

inline double
count_excess (double scaled_count)
{
  return scaled_count > 1 ? scaled_count - 1 : 0;
}

void
add_excess (Site &s, const memprof_raw_mib &mib)
{
  double g_count, g_bytes;
  record_factors (s, mib, &g_count, &g_bytes);
  s.excess += count_excess (g_count * (double) mib.alloc_count);
}

// The fields scaled alongside the count (BYTES_SIDE: the bytes) when it
// goes FROM one value TO another, from SOURCE's values (MIB's own by
// default): a per-block sum, as the utilisation's, stays within its
// per-block bounds.
void
rescale (memprof_raw_mib &mib, bool bytes_side, uint64_t from, uint64_t to,
         const memprof_raw_mib *source = nullptr)
{
  for (uint32_t f = 0; f < kFields; f++)
    if (f != kCount && f != kBytes && (f == kAccesses) == bytes_side)
      {
        uint64_t &v = mib.*kScaled[f];
        uint64_t was = source ? source->*kScaled[f] : v;
        v = (uint64_t) ((unsigned __int128) was * to / from);
      }
}

// CERTAIN: the record of the same context's weight-1 blocks, or null.
void
scale_record (Site &s, memprof_raw_mib &mib,
              const memprof_raw_mib *certain = nullptr)
{
  double g_count, g_bytes;
  record_factors (s, mib, &g_count, &g_bytes);
  bool last = ++s.done == s.records;
  const memprof_raw_mib sampled = mib;
  for (uint32_t f = 0; f < kFields; f++)
    {
      uint64_t &v = mib.*kScaled[f];
      double x = (double) v * (f == kBytes || f == kAccesses ? g_bytes : g_count);
      uint64_t base = 0, total = UINT64_MAX;
      if (f == kCount)
        {
          // One allocation per record, the others shared out in
          // proportion to what each record's scaled count holds beyond
          // its one (when every scaled count is at least 1, as when
          // N >= A, this is the scaled count itself).
          base = 1;
          total = sampled_count (s) - s.records;
          x = s.excess > 0 ? count_excess (x) * (double) total / s.excess
                           : (double) total / (double) s.records;
        }
      else if (f == kBytes && s.bytes)
        total = sampled_bytes (s);
      // Systematic rounding: the running sum rounded at the site's
      // offset, so each record is right in expectation and the rounded
      // sums are the exact totals (the last record takes what is left).
      s.cum[f] += x;
      uint64_t upto = (uint64_t) (s.cum[f] + s.offset);
      if (upto > total || (last && total != UINT64_MAX))
        upto = total;
      if (upto < s.out[f])
        upto = s.out[f];
      v = base + (upto - s.out[f]);
      s.out[f] = upto;
    }
  // The per-block sums scaled with the count (lifetimes, utilisation,
  // CPUs) follow the count as it came out, shared by the site's tally:
  // each keeps its sampled per-block mean (an average utilisation of
  // 125%, a mean lifetime outside its min..max, otherwise).
  if (sampled.alloc_count)
    rescale (mib, false, sampled.alloc_count, mib.alloc_count, &sampled);
  // The live heap's fields are sums over the same sampled blocks: the
  // same factors, and never more than the record's calibrated totals
  // (left as sampled, a context could show more blocks live at the peak
  // than it ever allocated).
  // A context with weight-1 blocks too has its whole live heap here
  // (live_fill_records), theirs included: those are no sample.  Up to
  // all they hold is taken for theirs and left as it is, the rest scaled
  // (scaled and capped with this record's own totals, a 128 MiB buffer
  // live at the peak, whose growth had made two sampled blocks and eight
  // weight-1 ones, read 587,774 bytes), and the cap is both records'.
  uint64_t fixed_blocks = certain ? certain->alloc_count : 0;
  uint64_t fixed_bytes = certain ? certain->total_size : 0;
  auto live = [] (uint64_t &v, double g, uint64_t fixed, uint64_t cap) {
    uint64_t theirs = v < fixed ? v : fixed;
    double x = (double) theirs + (double) (v - theirs) * g + 0.5;
    v = x >= (double) cap ? cap : (uint64_t) x;
  };
  uint64_t count_cap = mib.alloc_count + fixed_blocks;
  uint64_t bytes_cap = mib.total_size + fixed_bytes;
  live (mib.blocks_at_peak, g_count, fixed_blocks, count_cap);
  live (mib.max_live_blocks, g_count, fixed_blocks, count_cap);
  live (mib.blocks_at_exit, g_count, fixed_blocks, count_cap);
  live (mib.bytes_at_peak, g_bytes, fixed_bytes, bytes_cap);
  live (mib.max_live_bytes, g_bytes, fixed_bytes, bytes_cap);
  live (mib.bytes_at_exit, g_bytes, fixed_bytes, bytes_cap);
  // Bytes live are in some block ("max 13,544,926 bytes, 0 blocks"
  // otherwise, the two rounded apart).
  if (mib.bytes_at_peak && !mib.blocks_at_peak)
    mib.blocks_at_peak = 1;
  if (mib.max_live_bytes && !mib.max_live_blocks)
    mib.max_live_blocks = 1;
  if (mib.bytes_at_exit && !mib.blocks_at_exit)
    mib.blocks_at_exit = 1;
}

// Allocations record MIB could take with its mean size still within its
// sampled min..max.
inline uint64_t
count_room (const memprof_raw_mib &mib)
{
  if (!mib.alloc_count || !mib.min_size)
    return 0;
  uint64_t most = mib.total_size / mib.min_size;
  return most > mib.alloc_count ? most - mib.alloc_count : 0;
}

// Give record MIB of S its share of the allocations the site's clamped
// records gave up, in proportion to its room (systematic rounding).
void
give_room (Site &s, memprof_raw_mib &mib)
{
  uint64_t room = count_room (mib);
  if (!room || !s.clamped_count || !s.room)
    return;
  s.given_cum += (double) s.clamped_count * (double) room / (double) s.room;
  uint64_t upto = (uint64_t) (s.given_cum + s.offset);
  if (upto > s.clamped_count)
    upto = s.clamped_count;
  uint64_t give = upto > s.given ? upto - s.given : 0;
  if (give > room)
    give = room;
  if (!give)
    return;
  s.given += give;
  rescale (mib, false, mib.alloc_count, mib.alloc_count + give);
  mib.alloc_count += give;
}

// Keep the calibrated mean size of a record whose sampled blocks all had
// one size at that size: the ratios scale counts and bytes apart, and a
// site whose small blocks went unsampled (two 256 KiB blocks and 500 of
// 48 bytes at one malloc, at a 64 KiB interval) would give that record
// the others' count: "502 blocks, 548,288 bytes, min = max 262,144".
// What is taken off goes to the site's other records (give_room) or
// unattributed.
// CERTAIN: as for scale_record.
void
clamp_mean (Site &s, memprof_raw_mib &mib,
            const memprof_raw_mib *certain = nullptr)
{
  uint64_t n = mib.alloc_count, b = mib.total_size, size = mib.min_size;
  if (!n || !size)
    return;
  // One block's worth either way is the rounding's (count and bytes are
  // rounded apart, each to its exact site total), not the estimator's.
  // Below the smallest size only a context whose sampled blocks all had
  // one size: sampling favours large blocks, so a context of several
  // sizes may well have a mean below the smallest it had sampled, but
  // hardly above the largest.
  if (size == mib.max_size && b / size + 1 < n)
    {
      uint64_t keep = b / size ? b / size : 1;
      s.clamped_count += n - keep;
      rescale (mib, false, n, keep);
      mib.alloc_count = keep;
    }
  else if ((unsigned __int128) b > (unsigned __int128) (n + 1) * mib.max_size)
    {
      s.clamped_bytes += b - n * mib.max_size;
      rescale (mib, true, b, n * mib.max_size);
      mib.total_size = n * mib.max_size;
    }
  else
    return;
  uint64_t *blocks[] = { &mib.blocks_at_peak, &mib.max_live_blocks,
                         &mib.blocks_at_exit };
  uint64_t *bytes[] = { &mib.bytes_at_peak, &mib.max_live_bytes,
                        &mib.bytes_at_exit };
  uint64_t count_cap = mib.alloc_count + (certain ? certain->alloc_count : 0);
  uint64_t bytes_cap = mib.total_size + (certain ? certain->total_size : 0);
  for (uint64_t *v : blocks)
    if (*v > count_cap)
      *v = count_cap;
  for (uint64_t *v : bytes)
    if (*v > bytes_cap)
      *v = bytes_cap;
}

} // namespace

bool
site_calibrate (HibNode *records, CalibrationStats *stats)
{
  *stats = CalibrationStats ();
  uint64_t n = 0;
  for (HibNode *r = records; r; r = r->next)
    n++;
  uint64_t slots = 64;
  while (slots < 2 * n)
    slots *= 2;
  size_t map_size = round_up (slots * sizeof (Site), kPageSize);
  SiteMap m = { (Site *) map_memory (map_size, false), slots - 1, 0, 0 };
  if (!m.sites)
    return false;
  for (HibNode *r = records; r; r = r->next)
    {
      uintptr_t pc = frame0 (r->mib);
      if (!pc)
        continue;
      add_record (*find (m, pc, true), r->mib);
    }
  uint64_t untallied;
  site_tally_take (add_tally, &m, &untallied);
  stats->lost_allocations = m.lost_count + untallied;
  stats->lost_bytes = m.lost_bytes;
  for (uint64_t i = 0; i < slots; i++)
    {
      Site &s = m.sites[i];
      // A site whose only records are of weight-1 blocks: the rest of
      // its tally was not sampled, and belongs to no record.  (Given to
      // the weight-1 records, a site's first block, it made one context
      // stand for all the site's others, accesses and lifetimes
      // multiplied alike: yaml-cpp's static RegEx given 30,174 blocks and
      // 15,000 times its accesses; and where the rest had the first
      // block's size, libsass's first selector, long-lived and hot, given
      // 10,806 blocks and 1,000 times theirs.)
      if (s.pc && !s.records)
        {
          stats->lost_allocations += sampled_count (s);
          stats->lost_bytes += sampled_bytes (s);
        }
      if (!s.pc || !calibratable (s))
        continue;
      stats->sites++;
      choose_factors (s);
      s.offset = (double) (sampler_random () >> 11) * 0x1p-53;
    }
  for (HibNode *r = records; r; r = r->next)
    {
      uintptr_t pc = frame0 (r->mib);
      Site *s = pc ? find (m, pc, false) : nullptr;
      if (scaled (s, r->mib) && calibratable (*s))
        add_excess (*s, r->mib);
    }
  for (HibNode *r = records; r; r = r->next)
    {
      uintptr_t pc = frame0 (r->mib);
      Site *s = pc ? find (m, pc, false) : nullptr;
      if (certain (r->mib) && !scaled (s, r->mib))
        continue;
      if (!s || !calibratable (*s))
        {
          stats->records_left++;
          continue;
        }
      // (A sampled record's partner is its context's weight-1 record.)
      const memprof_raw_mib *weight1
        = !certain (r->mib) && r->partner ? &r->partner->mib : nullptr;
      scale_record (*s, r->mib, weight1);
      clamp_mean (*s, r->mib, weight1);
      stats->records++;
    }
  // The allocations clamped records gave up go to the site's records
  // with room for them (small blocks that went unsampled are whose they
  // most likely were), what is left unattributed.
  auto each_scaled = [&] (auto fn) {
    for (HibNode *r = records; r; r = r->next)
      {
        uintptr_t pc = frame0 (r->mib);
        Site *s = pc ? find (m, pc, false) : nullptr;
        if (s && s->clamped_count && scaled (s, r->mib) && calibratable (*s))
          fn (*s, r->mib);
      }
  };
  each_scaled ([] (Site &s, memprof_raw_mib &mib) {
    s.room += count_room (mib);
  });
  each_scaled (give_room);
  for (uint64_t i = 0; i < slots; i++)
    {
      stats->lost_allocations += m.sites[i].clamped_count - m.sites[i].given;
      stats->lost_bytes += m.sites[i].clamped_bytes;
    }
  unmap_memory (m.sites, map_size);
  return true;
}

void
certain_pair (HibNode *records)
{
  uint64_t n = 0, certain_records = 0;
  for (HibNode *r = records; r; r = r->next)
    {
      n++;
      r->partner = nullptr;
      if (certain (r->mib))
        certain_records++;
    }
  if (!certain_records)
    return;
  uint64_t slots = 64;
  while (slots < 2 * n)
    slots *= 2;
  size_t map_size = round_up (slots * sizeof (HibNode *), kPageSize);
  HibNode **map = (HibNode **) map_memory (map_size, false);
  if (!map)
    return;   // Each stays a record of its own.
  auto slot_of = [&] (uint32_t id) {
    uint64_t i = home_slot (id);
    while (map[i & (slots - 1)]
           && (uint32_t) map[i & (slots - 1)]->mib.stack_id != id)
      i++;
    return &map[i & (slots - 1)];
  };
  for (HibNode *r = records; r; r = r->next)
    if (!certain (r->mib))
      *slot_of ((uint32_t) r->mib.stack_id) = r;
  // Linked both ways: the sampled record's partner is the weight-1 one.
  for (HibNode *r = records; r; r = r->next)
    if (certain (r->mib))
      {
        r->partner = *slot_of ((uint32_t) r->mib.stack_id & ~kCertainContext);
        if (r->partner)
          r->partner->partner = r;
      }
  unmap_memory (map, map_size);
}

HibNode *
certain_merge (HibNode **records, HibNode **tail)
{
  HibNode *merged = nullptr;
  HibNode *prev = nullptr;
  for (HibNode *r = *records, *next; r; r = next)
    {
      next = r->next;
      if (!certain (r->mib))
        {
          prev = r;
          continue;
        }
      // Its blocks merged one by one in the exact path, which counts no
      // samples: each of them was recorded.
      r->mib.sampled_blocks = r->mib.alloc_count;
      if (!r->partner)
        {
          r->mib.stack_id = (uint32_t) r->mib.stack_id & ~kCertainContext;
          prev = r;
          continue;
        }
      hib_merge_records (r->partner->mib, r->mib);
      if (prev)
        prev->next = next;
      else
        *records = next;
      if (tail && *tail == r)
        *tail = prev;
      r->next = merged;
      merged = r;
    }
  return merged;
}

void
sampled_bounds (HibNode *records, bool whole_run, uint64_t unattributed_bytes,
                uint64_t unattributed_allocs, uint64_t *peak_bytes,
                uint64_t *peak_blocks)
{
  auto at_most = [] (uint64_t &v, uint64_t bound) {
    if (v > bound)
      v = bound;
  };
  uint64_t bytes = unattributed_bytes, blocks = unattributed_allocs;
  uint64_t at_peak_bytes = 0, at_peak_blocks = 0;
  for (HibNode *r = records; r; r = r->next)
    {
      memprof_raw_mib &m = r->mib;
      bytes += m.total_size;
      blocks += m.alloc_count;
      if (whole_run)
        {
          at_most (m.max_live_bytes, m.total_size);
          at_most (m.max_live_blocks, m.alloc_count);
        }
      if (m.alloc_count && m.max_live_bytes < m.max_size)
        m.max_live_bytes = m.max_size;
      if (m.alloc_count && m.max_live_blocks == 0)
        m.max_live_blocks = 1;
      at_most (m.bytes_at_peak, m.max_live_bytes);
      at_most (m.blocks_at_peak, m.max_live_blocks);
      at_most (m.bytes_at_exit, m.max_live_bytes);
      at_most (m.blocks_at_exit, m.max_live_blocks);
      at_peak_bytes += m.bytes_at_peak;
      at_peak_blocks += m.blocks_at_peak;
    }
  // The contexts' shares of the peak, calibrated, are the better
  // estimate of it when larger (the process's own count is the
  // sampler's weights alone): 4.2 MB against 6.4 MB, all of it live.
  if (*peak_bytes < at_peak_bytes)
    {
      *peak_bytes = at_peak_bytes;
      *peak_blocks = at_peak_blocks;
    }
  if (whole_run)
    {
      at_most (*peak_bytes, bytes);
      at_most (*peak_blocks, blocks);
    }
}

} // namespace memprof
