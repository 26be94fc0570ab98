// The text report of memprof-dump.
#include "text_report.h"

#include "diag.h"
#include "frame_names.h"
#include "short_names.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace memprof {

// Thresholds of the flags; documented in README.
static const double kShortLivedMs = 1.0;
static const double kLowUtilizationPercent = 25.0;

std::vector<std::string>
context_flags (const FieldValues &v)
{
  std::vector<std::string> flags;
  if (v[F_alloc_count] == 0)
    return flags;
  if (v[F_total_access_count] == 0)
    flags.push_back ("never accessed");
  // Blocks still live at the end were never freed: their lifetime is
  // the time until the dump, however short the run (a stdin buffer,
  // merged over 684 runs, read "short-lived"), and the average holds
  // theirs too.  So the freed blocks must be most of them (jq's stdin
  // buffers over its test suite: 6 freed, 161 live at exit).
  uint64_t freed = v[F_alloc_count] > v[F_blocks_at_exit]
                     ? v[F_alloc_count] - v[F_blocks_at_exit] : 0;
  if (freed >= 2 && freed > v[F_blocks_at_exit]
      && average_lifetime (v) < kShortLivedMs)
    flags.push_back ("short-lived");
  if (v[F_total_access_count] != 0
      && average_utilization (v) < kLowUtilizationPercent)
    flags.push_back ("low utilisation");
  return flags;
}

bool
system_library (const std::string &module)
{
  static const char *const dirs[] = { "/lib/", "/lib64/", "/usr/lib/",
                                      "/usr/lib64/" };
  if (!shared_object (module))
    return false;
  for (const char *d : dirs)
    if (module.compare (0, std::strlen (d), d) == 0)
      return true;
  return false;
}

std::string
grouped (uint64_t v)
{
  std::string digits = std::to_string (v), out;
  for (size_t i = 0; i < digits.size (); i++)
    {
      if (i && (digits.size () - i) % 3 == 0)
        out += ',';
      out += digits[i];
    }
  return out;
}

std::string
shell_quoted (const std::string &s)
{
  static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789_@%+=:,./-";
  if (!s.empty () && s.find_first_not_of (plain) == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string ("'\\''") : std::string (1, c);
  return q + "'";
}

// V with DECIMALS decimals (1 or 2), its integer part grouped like
// grouped's: "1,118,447.9".
static std::string
grouped_decimal (double v, int decimals = 1)
{
  uint64_t scale = decimals == 2 ? 100 : 10;
  uint64_t parts = (uint64_t) (v * scale + 0.5);
  std::string frac = std::to_string (parts % scale);
  if (frac.size () < (size_t) decimals)
    frac.insert (0, decimals - frac.size (), '0');
  return grouped (parts / scale) + "." + frac;
}

std::string
counted (uint64_t v, const char *one, const char *many)
{
  return grouped (v) + " " + (v == 1 ? one : many);
}


// A sampled context's maximum live estimate, from the blocks sampled
// live at that moment: each block of SIZE bytes stands for
// size / (1 - exp (-size / interval)) bytes (about the interval for a
// block much smaller than it), so a maximum of a few intervals rests on
// a few blocks and is a rough figure, however many the context
// allocated (ninja's one open FILE read 885,121 bytes live at most
// against 472).  The note for the "live:" line, or "".
static std::string
sampled_max_note (const FieldValues &v, uint64_t interval)
{
  if (!interval || !v[F_sampled_blocks] || !v[F_max_live_bytes]
      || v[F_sampled_blocks] >= v[F_alloc_count] || !v[F_alloc_count])
    return "";
  double size = (double) v[F_total_size] / v[F_alloc_count];
  // Blocks of the interval's size or more weigh about 1: their sum is
  // about exact however few they are.
  if (size >= interval)
    return "";
  double per_block = size >= 1 ? size / -std::expm1 (-size / interval)
                               : (double) interval;
  // (Calibrated to exact site totals, a record's estimates are scaled:
  // never more blocks than it was built from.)
  double behind = std::min (v[F_max_live_bytes] / per_block,
                            (double) v[F_sampled_blocks]);
  if (behind >= 10)
    return "";
  uint64_t n = behind < 1.5 ? 1 : (uint64_t) (behind + 0.5);
  return " (rough: about " + counted (n, "sampled block", "sampled blocks")
         + " live then)";
}

void
write_text_report (FILE *out, const std::vector<std::string> &header_lines,
                   const ContextTable &table, const SortMetric &metric,
                   const std::vector<const Context *> &records, uint64_t top)
{
  for (const std::string &l : header_lines)
    std::fprintf (out, "%s\n", l.c_str ());
  uint64_t bytes = 0, blocks = 0, accesses = 0;
  for (const Context *c : records)
    {
      bytes += c->fields[F_total_size];
      blocks += c->fields[F_alloc_count];
      accesses += c->fields[F_total_access_count];
    }
  size_t shown = top && top < records.size () ? top : records.size ();
  // A sampled profile's allocations in no context: the contexts' sum is
  // not the program's total (ninja's read 2.9% low), so give both.
  std::string with;
  if ((table.unattributed_allocs || table.unattributed_bytes)
      && records.size () == table.contexts ().size ())
    with = "; with the unattributed: "
           + counted (bytes + table.unattributed_bytes, "byte", "bytes")
           + " in "
           + counted (blocks + table.unattributed_allocs, "block", "blocks");
  std::fprintf (out, "Total: %s in %s from %s, %s%s\n",
                counted (bytes, "byte", "bytes").c_str (),
                counted (blocks, "block", "blocks").c_str (),
                counted (records.size (), "allocation context",
                         "allocation contexts").c_str (),
                counted (accesses, "access", "accesses").c_str (),
                with.c_str ());
  // A metric no context has (--sort=leaked of a program that freed
  // everything) orders nothing: say so rather than list the contexts as
  // if in its order.
  bool any = false;
  for (const Context *c : records)
    any = any || metric_value (metric, c->fields) != 0;
  std::fprintf (out, "Sorted by %s%s; showing %zu%s\n", metric.name.c_str (),
                metric.ascending ? " (lowest first)" : "", shown,
                any || records.empty () ? ""
                : (" (every context's " + metric.name
                   + " is 0: in stack order)").c_str ());
  for (size_t n = 0; n < shown;)
    {
      const Context *c = records[n];
      const FieldValues &v = c->fields;
      std::fprintf (out, "\n-------------------- %zu of %zu "
                         "--------------------\n",
                    ++n, records.size ());
      std::fprintf (out, "bytes:       %s in %s (avg size %s, min "
                         "%s, max %s)\n",
                    grouped (v[F_total_size]).c_str (),
                    counted (v[F_alloc_count], "block", "blocks").c_str (),
                    grouped_decimal (average_size (v)).c_str (),
                    grouped (v[F_min_size]).c_str (),
                    grouped (v[F_max_size]).c_str ());
      std::fprintf (out, "accesses:    %s (%s per byte; per block min %s, "
                         "max %s)\n",
                    grouped (v[F_total_access_count]).c_str (),
                    grouped_decimal (access_density (v), 2).c_str (),
                    grouped (v[F_min_access_count]).c_str (),
                    grouped (v[F_max_access_count]).c_str ());
      // Merged runs: the peak and the maximum are one run's (the largest),
      // what was live at exit is every run's together, and can exceed
      // them ("max 100 MB; 201 MB at exit" read as a contradiction).
      bool runs = table.num_profiles > 1;
      std::fprintf (out, "live:        %s bytes in %s at the peak; "
                         "max %s bytes, %s%s%s; %s bytes in %s at exit%s\n",
                    grouped (v[F_bytes_at_peak]).c_str (),
                    counted (v[F_blocks_at_peak], "block", "blocks").c_str (),
                    grouped (v[F_max_live_bytes]).c_str (),
                    counted (v[F_max_live_blocks], "block", "blocks").c_str (),
                    sampled_max_note (v, table.sample_interval).c_str (),
                    runs ? " (peak and max: the largest of any run)" : "",
                    grouped (v[F_bytes_at_exit]).c_str (),
                    counted (v[F_blocks_at_exit], "block", "blocks").c_str (),
                    runs ? " (all runs)" : "");
      std::fprintf (out, "lifetime:    avg %s ms (min %s, max %s); %s "
                         "lifetime overlaps\n",
                    grouped_decimal (average_lifetime (v)).c_str (),
                    grouped (v[F_min_lifetime]).c_str (),
                    grouped (v[F_max_lifetime]).c_str (),
                    grouped (v[F_num_lifetime_overlaps]).c_str ());
      std::fprintf (out, "utilisation: avg %.0f%% (min %llu%%, max %llu%%)\n",
                    average_utilization (v),
                    (unsigned long long) v[F_min_percent_utilized],
                    (unsigned long long) v[F_max_percent_utilized]);
      std::fprintf (out, "cpus:        %s migrated, %s same alloc cpu, %s "
                         "same dealloc cpu\n",
                    grouped (v[F_num_migrated_cpu]).c_str (),
                    grouped (v[F_num_same_alloc_cpu]).c_str (),
                    grouped (v[F_num_same_dealloc_cpu]).c_str ());
      // How much a sampled record's estimates rest on (0: a profile
      // written before the runtime counted it).
      if (table.sample_interval && v[F_sampled_blocks])
        std::fprintf (out, "sampled:     %s\n",
                      v[F_sampled_blocks] >= v[F_alloc_count]
                        ? format ("all %s recorded",
                                  counted (v[F_sampled_blocks], "block",
                                           "blocks").c_str ()).c_str ()
                        : format ("estimated from %s",
                                  counted (v[F_sampled_blocks],
                                           "sampled block",
                                           "sampled blocks").c_str ())
                            .c_str ());
      // Size 0: the type is incomplete where the call was compiled (an
      // opaque DIR * from opendir, declared with the malloc attribute).
      if (const AllocatedType *t = table.context_type (*c))
        std::fprintf (out, "type:        %s (%s)%s%s\n",
                      display_name (t->name).c_str (),
                      t->size ? (grouped (t->size) + " bytes").c_str ()
                              : "size unknown: incomplete type",
                      t->prefix ? ", at the start of each larger block" : "",
                      t->offset ? format (", after an allocator header of "
                                          "%llu bytes",
                                          (unsigned long long) t->offset)
                                    .c_str ()
                                : "");
      if (table.histogram_mode ())
        {
          // The hottest slot; the field report (--fields) says more.
          const std::vector<uint64_t> &h = c->histogram;
          size_t hot = 0, used = 0;
          for (size_t i = 0; i < h.size (); i++)
            {
              used += h[i] != 0;
              if (h[i] > h[hot])
                hot = i;
            }
          if (used)
            std::fprintf (out, "slots:       %zu of %zu accessed; hottest "
                               "bytes %zu-%zu, %s accesses\n",
                          used, h.size (), hot * kHistogramSlotBytes,
                          hot * kHistogramSlotBytes + kHistogramSlotBytes - 1,
                          grouped (h[hot]).c_str ());
          else
            std::fprintf (out, "slots:       %zu, none accessed\n",
                          h.size ());
        }
      std::vector<std::string> flags = context_flags (v);
      // Allocated inside a system library (fopen's FILE in libc.so.6, a
      // std::string grown inside libstdc++.so.6): its own uses of the
      // block are not instrumented, so say whose accesses the flags
      // speak of.  And where no code was instrumented, say that.
      std::string library;
      if (!c->stack.empty ()
          && system_library (table.frame (c->stack[0]).module))
        {
          const std::string &module = table.frame (c->stack[0]).module;
          library = module.substr (module.rfind ('/') + 1);
        }
      // Or in code of the program without debug info, which a
      // -fheapprof build always has (a third-party static library,
      // gtest's libgtest.a): likely uninstrumented too.
      std::string where;
      if (!library.empty ())
        where = "inside " + library;
      else if (!c->stack.empty ())
        {
          const Frame &f0 = table.frame (c->stack[0]);
          if (!f0.function.empty () && f0.file.empty ())
            where = "in " + frame_function_name (f0)
                    + ", which has no debug info: not built with -fheapprof";
        }
      // Blocks still live at exit that were made before main, by the
      // dynamic loader's or the C library's calls of the initializers
      // (libstdc++'s emergency exception pool, a program's static
      // objects): once-only start-up memory, not a leak that grows.
      if (v[F_blocks_at_exit])
        for (uint32_t id : c->stack)
          {
            const std::string &fn = table.frame (id).function;
            if (fn == "_dl_init" || fn == "call_init")
              {
                flags.push_back ("made before main (an initializer)");
                break;
              }
          }
      bool none_ran = table.num_profiles
                      && table.uninstrumented_profiles >= table.num_profiles;
      for (std::string &f : flags)
        if (f == "never accessed" && none_ran)
          f = "never accessed by instrumented code (none ran)";
        else if ((f == "never accessed" || f == "low utilisation")
                 && !where.empty ())
          f += " by instrumented code (allocated " + where + ")";
      if (!flags.empty ())
        {
          std::string all;
          for (const std::string &f : flags)
            all += (all.empty () ? "" : ", ") + f;
          std::fprintf (out, "flags:       %s\n", all.c_str ());
        }
      for (size_t i = 0; i < c->stack.size (); i++)
        std::fprintf (out, "%s %s\n", i == 0 ? "at" : "by",
                      frame_text (table.frame (c->stack[i])).c_str ());
    }
}

} // namespace memprof
