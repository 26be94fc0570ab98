// memprof-dump: show a raw or an indexed heap profile as a text report or
// as one JSON document.
#include "config.h"

#include "command_line.h"
#include "context_table.h"
#include "demangle.h"
#include "diag.h"
#include "diff_report.h"
#include "export_formats.h"
#include "field_map.h"
#include "field_report.h"
#include "function_filter.h"
#include "indexed_reader.h"
#include "json_output.h"
#include "profile_input.h"
#include "raw_reader.h"
#include "report_order.h"
#include "response_file.h"
#include "short_names.h"
#include "symbolizer.h"
#include "text_report.h"

#include "memprof/indexed_format.h"
#include "memprof/raw_format.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>

using namespace memprof;

namespace {

void
usage (FILE *out)
{
  std::fprintf (out, "\
Usage: %s [OPTION]... FILE\n\
  or:  %s --diff [OPTION]... BASE NEW\n\
Show a gcc-memprof profile FILE, raw (.memprofraw) or indexed\n\
(.memprofdata): a header, then one entry per allocation context with its\n\
symbolized stack.\n\
\n\
  --format=FORMAT         text (the report, the default), json (one JSON\n\
                          document), pprof (gzipped profile.proto for go tool\n\
                          pprof), dhat (JSON for Valgrind's dh_view.html),\n\
                          folded (folded stacks for flame graphs)\n\
  --json                  the same as --format=json\n\
  --metric=METRIC         the value of --format=folded and of --diff: bytes\n\
                          (allocated, the default), blocks, accesses, peak\n\
                          (bytes live at the peak), leaked (bytes live at exit)\n\
  --diff                  compare two profiles (raw or indexed), BASE and NEW:\n\
                          contexts matched by symbolized stack, by change in\n\
                          METRIC, largest first; new and vanished ones marked\n\
                          (text, or --format=json)\n\
  --sort=METRIC           order contexts by METRIC: bytes (default), blocks,\n\
                          accesses, density, lifetime, utilization (lowest\n\
                          first), avg-size, peak (bytes live at the peak),\n\
                          leaked (bytes live at exit), max-live, or any\n\
                          field name\n\
  --top=N                 show only the first N contexts (types with\n\
                          --by-type); 0, the default, shows all\n\
  --fields                of a histogram profile (-fheapprof-histogram):\n\
                          per context of a known type, each field's\n\
                          accesses and share, the cold fields, and what\n\
                          moving or regrouping them saves\n\
  --by-type               with --fields: per type, all its contexts summed\n\
  --full-names            C++ names in the text as the debug information\n\
                          spells them (by default the standard library's\n\
                          are shortened: std::string, std::vector<int>)\n\
  --function=NAME         show only contexts allocated directly by NAME (or\n\
                          through functions inlined into it, or through C++\n\
                          standard library frames only): a linkage name, a\n\
                          demangled one, or one without its parameters\n\
                          (every overload) or template arguments, each\n\
                          also without its outer scopes ('add' for\n\
                          ns::Table::add) or ABI tag ([abi:cxx11]); exit 1\n\
                          if none\n\
  --allocator=NAME        with --function: NAME is part of the allocator (an\n\
                          allocation wrapper of the program's own), passed\n\
                          over as the C++ standard library's frames are;\n\
                          repeatable\n\
  --binary=PATH           symbolize a raw profile's module from PATH (matched\n\
                          by build id, else by file name); repeatable\n\
  --debug-file-directory=DIR  also look for separate debug info in DIR\n\
                          (DIR/.build-id/xx/yyyy.debug); repeatable\n\
  --help                  display this help and exit\n\
  --version               output version information and exit\n\
\n\
Arguments may also come from @FILE.  Exit status is 0 on success, 1 on\n\
error.\n",
                program_name (), program_name ());
}

enum class Format { TEXT, JSON, PPROF, DHAT, FOLDED };

struct Options
{
  Format format = Format::TEXT;
  int folded_field = F_total_size;
  std::string metric_name = "bytes";
  bool metric_given = false;
  bool diff = false;
  std::string diff_new;   // --diff: the NEW profile (FILE is BASE).
  SortMetric metric;
  uint64_t top = 0;
  bool have_function = false;
  std::vector<std::string> allocators;    // --allocator
  std::string function;
  SymbolizerOptions sym;
  std::string file;
  // --print-layout MODULE TYPE SIZE [COUNTS]: a testing aid (HACKING.md).
  std::vector<std::string> print_layout;
  bool fields = false, by_type = false;
};

// NAME's value in the table KNOWN of (name, value) pairs; false when it
// is none of them.
template <typename T, size_t N>
bool
lookup_name (const std::pair<const char *, T> (&known)[N], const char *name,
             T &out)
{
  for (const auto &k : known)
    if (std::strcmp (name, k.first) == 0)
      {
        out = k.second;
        return true;
      }
  return false;
}

bool
parse_options (int argc, char **argv, Options &o)
{
  enum { OPT_JSON = OPT_FIRST_PROGRAM_OPTION, OPT_SORT, OPT_TOP,
         OPT_FUNCTION, OPT_ALLOCATOR, OPT_FORMAT, OPT_METRIC, OPT_DIFF, OPT_PRINT_LAYOUT,
         OPT_FIELDS, OPT_BY_TYPE, OPT_FULL_NAMES };
  static const struct option longopts[] = {
    { "json", no_argument, nullptr, OPT_JSON },
    { "format", required_argument, nullptr, OPT_FORMAT },
    { "metric", required_argument, nullptr, OPT_METRIC },
    { "diff", no_argument, nullptr, OPT_DIFF },
    { "sort", required_argument, nullptr, OPT_SORT },
    { "top", required_argument, nullptr, OPT_TOP },
    { "function", required_argument, nullptr, OPT_FUNCTION },
    { "allocator", required_argument, nullptr, OPT_ALLOCATOR },
    { "print-layout", no_argument, nullptr, OPT_PRINT_LAYOUT },
    { "fields", no_argument, nullptr, OPT_FIELDS },
    { "by-type", no_argument, nullptr, OPT_BY_TYPE },
    { "full-names", no_argument, nullptr, OPT_FULL_NAMES },
    MEMPROF_COMMON_LONG_OPTIONS,
    { nullptr, 0, nullptr, 0 },
  };
  find_sort_metric ("bytes", o.metric);
  int c;
  while ((c = getopt_long (argc, argv, "", longopts, nullptr)) != -1)
    switch (c)
      {
      case OPT_JSON:
        o.format = Format::JSON;
        break;
      case OPT_DIFF:
        o.diff = true;
        break;
      case OPT_FORMAT:
        {
          static const std::pair<const char *, Format> kFormats[] = {
            { "text", Format::TEXT }, { "json", Format::JSON },
            { "pprof", Format::PPROF }, { "dhat", Format::DHAT },
            { "folded", Format::FOLDED },
          };
          if (!lookup_name (kFormats, optarg, o.format))
            {
              report_error ("", format ("unknown format '%s' (use text, "
                                        "json, pprof, dhat or folded)",
                                        optarg));
              return false;
            }
          break;
        }
      case OPT_METRIC:
        {
          static const std::pair<const char *, int> kMetrics[] = {
            { "bytes", F_total_size }, { "blocks", F_alloc_count },
            { "accesses", F_total_access_count }, { "peak", F_bytes_at_peak },
            { "leaked", F_bytes_at_exit },
          };
          if (!lookup_name (kMetrics, optarg, o.folded_field))
            {
              report_error ("", format ("unknown metric '%s' (use bytes, "
                                        "blocks, accesses, peak or leaked)",
                                        optarg));
              return false;
            }
          o.metric_name = optarg;
          o.metric_given = true;
          break;
        }
      case OPT_SORT:
        if (!find_sort_metric (optarg, o.metric))
          {
            report_error ("", format ("unknown sort metric '%s' (use %s)",
                                      optarg, sort_metric_names ().c_str ()));
            return false;
          }
        break;
      case OPT_TOP:
        {
          unsigned long long n;
          if (!parse_whole_number ("--top count", optarg, 0, UINT64_MAX, n))
            return false;
          o.top = n;
          break;
        }
      case OPT_FUNCTION:
        o.have_function = true;
        o.function = optarg;
        break;
      case OPT_ALLOCATOR:
        o.allocators.push_back (optarg);
        break;
      case OPT_FIELDS:
        o.fields = true;
        break;
      case OPT_BY_TYPE:
        o.by_type = true;
        break;
      case OPT_FULL_NAMES:
        set_short_names (false);
        break;
      case OPT_PRINT_LAYOUT:
        o.print_layout.push_back ("");
        break;
      default:
        if (handle_common_option (c, o.sym, usage))
          break;
        hint_help ();
        return false;
      }
  if (!o.print_layout.empty ())
    {
      if (argc - optind < 3 || argc - optind > 4)
        {
          report_error ("", "--print-layout takes MODULE TYPE SIZE [COUNTS]");
          return false;
        }
      o.print_layout.assign (argv + optind, argv + argc);
      return true;
    }
  if (o.by_type && !o.fields)
    {
      report_error ("", "--by-type needs --fields (it sums the field "
                        "report per type)");
      return false;
    }
  // --metric chooses the value of the folded export and of --diff;
  // the text report and the other formats are ordered by --sort.
  if (o.metric_given && !o.diff && o.format != Format::FOLDED)
    {
      report_error ("", "--metric applies to --format=folded and --diff "
                        "only (the report's order is --sort's)");
      return false;
    }
  if (!o.allocators.empty () && !o.have_function)
    {
      report_error ("", "--allocator says which frames --function passes "
                        "over: give both");
      return false;
    }
  if (o.by_type && o.format != Format::TEXT)
    {
      // The JSON records carry each context's fields; summing them per
      // type is the reader's to do.
      report_error ("", "--by-type prints text only");
      return false;
    }
  if (o.fields && (o.diff || (o.format != Format::TEXT
                              && o.format != Format::JSON)))
    {
      report_error ("", "--fields prints text, or json (its \"fields\" "
                        "arrays) only, and not with --diff");
      return false;
    }
  if (o.diff)
    {
      if (optind + 2 != argc)
        {
          report_error ("", "--diff takes two profiles, BASE and NEW");
          hint_help ();
          return false;
        }
      if (o.format != Format::TEXT && o.format != Format::JSON)
        {
          report_error ("", "--diff prints text or json only");
          return false;
        }
      o.file = argv[optind];
      o.diff_new = argv[optind + 1];
      return true;
    }
  if (optind + 1 != argc)
    {
      report_error ("", optind == argc ? "missing profile FILE"
                                       : "more than one profile FILE given");
      hint_help ();
      return false;
    }
  o.file = argv[optind];
  return true;
}

// A profile read: its contexts, the text report's header lines, and
// what the exports say about the run.
struct Loaded
{
  ContextTable table;
  std::vector<std::string> header;
  const char *kind = "";
  uint64_t version = 0;
  RunInfo run;
};

// The profile being read, for the error message of a bad one.
std::string current_file;

void
load_profile (const std::string &file, const Options &o, Loaded &l)
{
  current_file = file;
  ProfileBytes bytes (file);
  ContextTable &table = l.table;
  std::vector<std::string> &header = l.header;
  const char *&kind = l.kind;
  uint64_t &version = l.version;
  RunInfo &run = l.run;
  if (bytes.kind () == InputKind::RAW)
    {
      kind = "raw";
      std::vector<RawProfile> profs
        = read_raw_profiles (bytes.data (), bytes.size ());
      version = profs[0].version;
      Symbolizer sym (o.sym);
      for (const RawProfile &p : profs)
        {
          std::vector<ModuleProblem> problems;
          add_raw_profile (p, sym, table, problems);
          // Arguments as a shell would take them back: quoted when empty
          // or holding anything but plain characters.
          std::string cmd;
          for (const std::string &a : p.command_line)
            cmd += (cmd.empty () ? "" : " ") + shell_quoted (a);
          std::string parent
            = p.parent_pid ? format (" (forked from %llu)",
                                     (unsigned long long) p.parent_pid)
                           : std::string ();
          header.push_back (format ("Raw profile (version %llu) of %s, pid "
                                    "%llu%s, dump %llu",
                                    (unsigned long long) p.version,
                                    p.executable.c_str (),
                                    (unsigned long long) p.pid,
                                    parent.c_str (),
                                    (unsigned long long) p.dump_sequence));
          if (!cmd.empty ())
            header.push_back ("Command: " + cmd);
          if (run.command.empty ())
            {
              run.command = cmd.empty () ? p.executable : cmd;
              run.executable = p.executable;
              run.runtime_version = p.runtime_version;
              run.dump_sequence = p.dump_sequence;
              run.pid = p.pid;
              run.parent_pid = p.parent_pid;
              run.written_at = p.written_at;
              if (p.end_time >= p.start_time && p.start_time)
                run.duration_ms = p.end_time - p.start_time;
            }
          if (!p.runtime_version.empty ())
            header.push_back ("Runtime: " + p.runtime_version);
          if (p.end_time >= p.start_time && p.start_time)
            header.push_back (format ("Run time: %llu ms",
                                      (unsigned long long) (p.end_time
                                                            - p.start_time)));
          // Which of a process's files this is: the one written at its
          // exec and the new program's look alike otherwise.
          std::string written = written_at_text (p.written_at);
          if (!written.empty ())
            header.push_back ("Written: " + written);
          for (const ModuleProblem &mp : problems)
            {
              std::string note = format ("note: addresses in %s are not "
                                         "symbolized: %s",
                                         mp.module.c_str (),
                                         mp.message.c_str ());
              header.push_back (note);
              report_error (file, note);
            }
        }
      resolve_layouts (table, sym);
    }
  else
    {
      kind = "indexed";
      IndexedInfo info
        = o.have_function
            ? read_indexed_function (bytes.data (), bytes.size (), o.function,
                                     o.allocators,
                                     table)
            : read_indexed (bytes.data (), bytes.size (), table);
      version = info.version;
      // The exports' command line (pprof's comments, DHAT's cmd): the
      // program, when the profile was of one.
      run.command = format ("(merged from %llu raw profiles%s)",
                            (unsigned long long)
                              info.summary[MEMPROF_SUMMARY_PROFILES],
                            table.programs.size () == 1
                              ? (" of " + table.programs.begin ()->first)
                                  .c_str ()
                              : "");
      header.push_back (format (
        "Indexed profile (version %llu) merged from %llu raw profiles",
        (unsigned long long) info.version,
        (unsigned long long) info.summary[MEMPROF_SUMMARY_PROFILES]));
      // Which programs: a merge of prof/* takes whatever ran there (a
      // build's helper tools beside the program).
      if (!table.programs.empty ())
        {
          std::vector<std::pair<uint64_t, std::string>> by_runs;
          for (const auto &p : table.programs)
            by_runs.emplace_back (p.second, p.first);
          std::stable_sort (by_runs.begin (), by_runs.end (),
                            [] (const auto &a, const auto &b) {
                              return a.first > b.first;
                            });
          std::string list;
          size_t shown = 0;
          for (const auto &p : by_runs)
            {
              if (shown == 8)
                {
                  list += format (", and %zu more", by_runs.size () - shown);
                  break;
                }
              list += format ("%s%s (%s)", shown ? ", " : "",
                              p.second.empty () ? "(unknown)"
                                                : p.second.c_str (),
                              counted (p.first, "run", "runs").c_str ());
              shown++;
            }
          header.push_back ((by_runs.size () == 1 ? "Program: "
                                                  : format ("Programs (%zu): ",
                                                            by_runs.size ()))
                            + list);
        }
      header.push_back (format (
        "Summary: %s contexts from %s allocating functions, %s blocks, "
        "%s bytes, %s accesses",
        grouped (info.summary[MEMPROF_SUMMARY_CONTEXTS]).c_str (),
        grouped (info.summary[MEMPROF_SUMMARY_FUNCTIONS]).c_str (),
        grouped (info.summary[MEMPROF_SUMMARY_ALLOC_COUNT]).c_str (),
        grouped (info.summary[MEMPROF_SUMMARY_TOTAL_SIZE]).c_str (),
        grouped (info.summary[MEMPROF_SUMMARY_ACCESS_COUNT]).c_str ())
        + (table.unattributed_allocs || table.unattributed_bytes
             ? " (the contexts' sums; Total adds the unattributed)" : ""));
    }
  if (table.peak.known)
    header.push_back (format ("Peak%s: %s bytes live in %s, %s ms "
                              "after the start%s",
                              table.sample_interval ? " (estimated)" : "",
                              grouped (table.peak.bytes).c_str (),
                              counted (table.peak.blocks, "block",
                                       "blocks").c_str (),
                              grouped (table.peak.time).c_str (),
                              table.num_profiles > 1
                                ? " (the largest of the runs)" : ""));
  if (table.histogram_mode ())
    header.push_back ("Mode: histogram (access counts per 8-byte slot)");
  if (table.uninstrumented_profiles)
    header.push_back (
      table.uninstrumented_profiles >= table.num_profiles
        ? std::string ("Accesses: only those of the C library functions "
                       "the runtime intercepts (memcpy, strlen, ...): no "
                       "code of this program was compiled with -fheapprof "
                       "(the runtime was preloaded or linked alone); "
                       "blocks, sizes, lifetimes and the live heap are "
                       "exact")
        : format ("Accesses: %llu of the %llu runs had no code compiled "
                  "with -fheapprof: their accesses were not counted",
                  (unsigned long long) table.uninstrumented_profiles,
                  (unsigned long long) table.num_profiles));
  if (table.sample_interval && table.site_calibrated)
    header.push_back (format ("Sampled: sample_interval=%llu (one allocation "
                              "sampled per %llu bytes on average); per "
                              "allocation site (frame 0) with a sampled "
                              "block counts and bytes are exact, their "
                              "split among the site's "
                              "contexts, accesses, lifetimes and live bytes "
                              "are estimates, minima and maxima as sampled",
                              (unsigned long long) table.sample_interval,
                              (unsigned long long) table.sample_interval));
  else if (table.sample_interval)
    header.push_back (format ("Sampled: sample_interval=%llu (one allocation "
                              "sampled per %llu bytes on average); counts, "
                              "sizes, accesses, lifetimes and live bytes are "
                              "estimates, minima and maxima as sampled",
                              (unsigned long long) table.sample_interval,
                              (unsigned long long) table.sample_interval));
  // Two leftovers, each of its own total: an unsampled site's blocks pair
  // with their bytes, a clamped record gives up allocations or bytes
  // alone (allocations alone: their bytes stay in the sites' contexts).
  if (table.unattributed_allocs || table.unattributed_bytes)
    {
      std::string what = counted (table.unattributed_allocs, "allocation",
                                  "allocations");
      if (table.unattributed_bytes)
        what += "; " + counted (table.unattributed_bytes, "byte", "bytes");
      // With them a calibrated profile's totals are the program's
      // exact ones: say so, as the contexts' sum alone is not (mruby,
      // one allocation site: 1 allocation and 31,623,702 bytes apart).
      std::string exact;
      if (table.site_calibrated)
        {
          uint64_t bytes = table.unattributed_bytes;
          uint64_t blocks = table.unattributed_allocs;
          for (const Context &c : table.contexts ())
            {
              bytes += c.fields[F_total_size];
              blocks += c.fields[F_alloc_count];
            }
          exact = "; with them the profile's exact totals are "
                  + counted (bytes, "byte", "bytes") + " in "
                  + counted (blocks, "block", "blocks");
        }
      header.push_back ("Unattributed: " + what + ": at sites whose "
                        "sampled blocks could not stand for them (only "
                        "weight-1 blocks recorded, or more than a "
                        "context's sampled sizes hold), in those sites' "
                        "exact totals, in no context below"
                        + std::string (table.unattributed_bytes
                                         ? ""
                                         : " (their bytes are in the sites' "
                                           "contexts)")
                        + exact);
    }
  // What memprof-merge could not symbolize (a raw profile's own notes
  // were added above as its modules were read).
  for (const auto &m : table.unsymbolized)
    header.push_back (format ("note: addresses in %s were left unsymbolized "
                              "by memprof-merge: %s", m.first.c_str (),
                              m.second.c_str ()));
  if (o.have_function)
    {
      std::string line = "Function: " + o.function;
      for (size_t i = 0; i < o.allocators.size (); i++)
        line += (i ? ", " : " (allocators: ") + o.allocators[i];
      header.push_back (line + (o.allocators.empty () ? "" : ")"));
    }
}

bool
flush_stdout ()
{
  if (std::ferror (stdout) || std::fflush (stdout) != 0 || std::ferror (stdout))
    {
      report_error ("standard output", std::strerror (errno));
      return false;
    }
  return true;
}

int
run_diff (const Options &o)
{
  Loaded base, next;
  load_profile (o.file, o, base);
  load_profile (o.diff_new, o, next);
  // memprof-merge refuses to add these up; a difference of them is still
  // worth reading, knowing what it holds.
  if (base.table.sample_interval != next.table.sample_interval)
    {
      auto kind = [] (const ContextTable &t) {
        return t.sample_interval
                 ? format ("sampled (sample_interval=%llu)",
                           (unsigned long long) t.sample_interval)
                 : std::string ("exact");
      };
      report_warning (o.diff_new,
                      format ("%s, compared with %s, %s: the differences "
                              "include the sampling's estimation error",
                              kind (next.table).c_str (), o.file.c_str (),
                              kind (base.table).c_str ()));
    }
  // A merged profile's counts are the sums over its runs: one run
  // against three reads as a tripling.
  if (base.table.num_profiles != next.table.num_profiles)
    report_warning (o.diff_new,
                    format ("%s, compared with %s, %s: the counts are "
                            "sums over the runs",
                            counted (next.table.num_profiles, "run merged",
                                     "runs merged").c_str (),
                            o.file.c_str (),
                            counted (base.table.num_profiles, "run merged",
                                     "runs merged").c_str ()));
  std::vector<ContextChange> changes
    = diff_contexts (base.table, next.table, o.folded_field);
  if (o.format == Format::JSON)
    {
      if (o.top && changes.size () > o.top)
        changes.resize (o.top);
      write_diff_json (stdout, o.file, o.diff_new, o.metric_name, changes);
    }
  else
    write_diff_text (stdout, o.file, o.diff_new, o.metric_name, changes,
                     o.top);
  return flush_stdout () ? 0 : 1;
}

// --print-layout MODULE TYPE SIZE [COUNTS]: the type's flattened layout
// and, given comma-separated slot counts (a "fold:" prefix folds them),
// the field report of that histogram.
int
run_print_layout (const Options &o)
{
  const std::vector<std::string> &a = o.print_layout;
  unsigned long long size;
  if (!parse_whole_number ("type size", a[2].c_str (), 1, UINT64_MAX, size))
    return 1;
  Symbolizer sym (o.sym);
  LayoutFinder finder (sym);
  TypeLayout layout;
  LayoutFinder::Problem problem;
  if (!finder.find (a[0], a[1], size, layout, problem))
    {
      report_error (a[0], problem.message);
      return 1;
    }
  for (const LayoutField &f : layout.fields)
    {
      std::string rep;
      for (const auto &r : f.repeats)
        rep += format (" x%llu/%llu", (unsigned long long) r.second,
                       (unsigned long long) r.first);
      std::printf ("%llu %llu %llu %s %s%s%s%s\n",
                   (unsigned long long) f.offset, (unsigned long long) f.size,
                   (unsigned long long) f.align, layout_kind_name (f.kind),
                   f.name.c_str (), rep.c_str (),
                   f.detail.empty () ? "" : " ", f.detail.c_str ());
    }
  if (a.size () == 4)
    {
      std::string counts = a[3];
      bool folded = counts.compare (0, 5, "fold:") == 0;
      if (folded)
        counts.erase (0, 5);
      std::vector<uint64_t> slots;
      for (size_t at = 0; at <= counts.size ();)
        {
          size_t comma = std::min (counts.find (',', at), counts.size ());
          slots.push_back (std::strtoull (counts.c_str () + at, nullptr, 10));
          at = comma + 1;
        }
      FieldReport report;
      map_fields (layout, slots, folded, 1, report);
      std::fputs (field_report_text (report, "").c_str (), stdout);
    }
  return flush_stdout () ? 0 : 1;
}

// For a --function that matched nothing: when the function is further
// out in some stacks, behind frames of the program's own (allocation
// wrappers: gumbo's malloc_wrapper, mujs's js_malloc), the --allocator
// options that would pass over them, or "".  The wrappers are those of
// the contexts where the fewest stand in front of it: a function that
// allocates through two wrappers is often deeper in other stacks too,
// behind callees of its own (SQLite's balance_nonroot, behind
// sqlite3MemMalloc and sqlite3Malloc in 4 contexts and behind
// allocateBtreePage, pager_write and more in others), and the union of
// all of them named nothing useful.
std::string
wrapper_hint (const Options &o)
{
  Options all = o;
  all.have_function = false;
  all.allocators.clear ();
  Loaded l;
  load_profile (o.file, all, l);
  FunctionFilter filter (o.function, o.allocators);
  // A name in no stack at all is misspelt, or of another program: say
  // that rather than hint (jsoncpp's Json::Reader::parse, in a program
  // that used CharReaderBuilder); so for an --allocator name.
  // (A filter remembers each function's verdict: frames share them.)
  auto in_no_frame = [&] (FunctionFilter &name) {
    for (size_t id = 0; id < l.table.num_frames (); id++)
      if (name.matches (l.table.frame ((uint32_t) id).function))
        return false;
    return true;
  };
  if (in_no_frame (filter))
    return format ("; no frame of the profile is %s", o.function.c_str ());
  for (const std::string &a : o.allocators)
    {
      FunctionFilter allocator (a);
      if (in_no_frame (allocator))
        return format ("; no frame of the profile is %s (--allocator)",
                       a.c_str ());
    }
  // Per context holding the function, the frames in front of it.
  std::vector<std::vector<std::string>> fronts;
  for (const Context *c : l.table.canonical_order ())
    {
      std::vector<std::string> before;
      for (uint32_t id : c->stack)
        {
          const Frame &frame = l.table.frame (id);
          const std::string &f = frame.function;
          if (filter.matches (f))
            {
              if (!before.empty ())
                fronts.push_back (before);
              break;
            }
          if (f.empty ())
            break;
          // A helper inlined into a wrapper goes with it (tcc's tal_new
          // in tal_realloc_impl): naming the wrapper passes over both.
          if (!filter.passes_over (f) && !frame.inlined
              && std::find (before.begin (), before.end (), f) == before.end ())
            before.push_back (f);
        }
    }
  if (fronts.empty ())
    return "";
  size_t fewest = fronts[0].size ();
  for (const auto &f : fronts)
    fewest = std::min (fewest, f.size ());
  std::vector<std::string> wrappers;
  for (const auto &f : fronts)
    if (f.size () == fewest)
      for (const std::string &b : f)
        if (std::find (wrappers.begin (), wrappers.end (), b)
            == wrappers.end ())
          wrappers.push_back (b);
  // Only a short list of wrappers reads as a hint (tcc has four:
  // tcc_malloc, tcc_mallocz, tcc_realloc, tal_realloc_impl); more is a
  // name deep in many stacks.
  if (wrappers.size () > 4)
    return "";
  // The contexts those options would show: every frame in front of the
  // function among them.
  uint64_t covered = 0;
  for (const auto &f : fronts)
    if (std::all_of (f.begin (), f.end (), [&] (const std::string &b) {
          return std::find (wrappers.begin (), wrappers.end (), b)
                 != wrappers.end ();
        }))
      covered++;
  std::string names, opts;
  for (const std::string &w : wrappers)
    {
      std::string shown = unqualified_name (demangle (w));
      names += (names.empty () ? "" : ", ") + shown;
      opts += " --allocator=" + shown;
    }
  std::string where
    = covered == fronts.size ()
        ? format ("in %s, behind %s",
                  counted (covered, "context", "contexts").c_str (),
                  names.c_str ())
        : format ("in %s; in %llu of them behind %s",
                  counted (fronts.size (), "context", "contexts").c_str (),
                  (unsigned long long) covered, names.c_str ());
  return format ("; it is further out %s: %s%s", where.c_str (),
                 o.allocators.empty () ? "give" : "also give", opts.c_str ());
}

int
run (const Options &o)
{
  if (!o.print_layout.empty ())
    return run_print_layout (o);
  if (!o.diff_new.empty ())
    return run_diff (o);
  Loaded l;
  load_profile (o.file, o, l);
  const ContextTable &table = l.table;
  std::vector<const Context *> records
    = report_order (table, o.metric, o.have_function ? &o.function : nullptr,
                    o.allocators);
  if (o.have_function && records.empty ())
    {
      report_error (o.file, format ("no allocation context has %s calling "
                                    "the allocation function (as frame 0, "
                                    "as a function frame 0 was inlined "
                                    "into, or as the first frame outside "
                                    "the C++ standard library)%s",
                                    o.function.c_str (),
                                    wrapper_hint (o).c_str ()));
      return 1;
    }
  bool written;
  RunInfo run = l.run;
  if (o.format != Format::TEXT && o.top && records.size () > o.top)
    records.resize (o.top);
  else if (!o.have_function)
    {
      run.unattributed_allocs = table.unattributed_allocs;
      run.unattributed_bytes = table.unattributed_bytes;
    }
  if (o.fields && !table.histogram_mode ())
    {
      report_error (o.file, "--fields needs a histogram profile (compile "
                            "with -fheapprof-histogram)");
      return 1;
    }
  if (o.fields && o.format == Format::TEXT)
    {
      write_fields_report (stdout, l.header, table, records, o.top,
                           o.by_type);
      written = true;
    }
  else if (o.format == Format::JSON)
    written = write_json (stdout, l.kind, l.version, table, records,
                          std::strcmp (l.kind, "raw") == 0 ? &l.run
                                                            : nullptr);
  else if (o.format == Format::PPROF)
    written = write_pprof (stdout, table, records, run);
  else if (o.format == Format::DHAT)
    written = write_dhat (stdout, table, records, run);
  else if (o.format == Format::FOLDED)
    written = write_folded (stdout, table, records, o.folded_field, run);
  else
    {
      write_text_report (stdout, l.header, table, o.metric, records, o.top);
      written = true;
    }
  if (!written)
    {
      report_error ("standard output", std::strerror (errno));
      return 1;
    }
  return flush_stdout () ? 0 : 1;
}

} // namespace

int
main (int argc, char **argv)
{
  set_program_name (argv[0]);
  std::vector<std::string> args = expand_response_files (argc, argv);
  std::vector<char *> av = argv_view (args);
  Options o;
  if (!parse_options (static_cast<int> (args.size ()), av.data (), o))
    return 1;
  try
    {
      return run (o);
    }
  catch (const FormatError &e)
    {
      report_error (current_file, e.what ());
    }
  catch (const std::bad_alloc &)
    {
      report_error (current_file, "out of memory");
    }
  return 1;
}
