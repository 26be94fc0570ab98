// memprof-merge: symbolize and merge raw and indexed heap profiles into
// one indexed profile.
#include "config.h"

#include "command_line.h"
#include "context_table.h"
#include "diag.h"
#include "field_report.h"
#include "indexed_reader.h"
#include "indexed_writer.h"
#include "output_file.h"
#include "profile_input.h"
#include "raw_reader.h"
#include "response_file.h"
#include "symbolizer.h"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <getopt.h>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>

using namespace memprof;

namespace {

void
usage (FILE *out)
{
  std::fprintf (out, "\
Usage: %s -o OUTPUT [OPTION]... PROFILE...\n\
Symbolize and merge gcc-memprof profiles, raw (.memprofraw) or indexed\n\
(.memprofdata), into one indexed profile OUTPUT.  Allocation contexts\n\
with equal symbolized call stacks are merged.\n\
\n\
  -o, --output=FILE       write the indexed profile to FILE (required); - is\n\
                          standard output; a FIFO or character device (also\n\
                          behind a symlink) is written through; a regular\n\
                          file (or a symlink's target) is replaced whole,\n\
                          keeping its mode, once the merge has succeeded; a\n\
                          read-only FILE is refused\n\
  --force                 merge even when an input is given twice (it then\n\
                          counts twice) or is also the output (read in full\n\
                          before the output replaces it)\n\
  --binary=PATH           symbolize a module from PATH instead of the path\n\
                          the profile recorded (matched by build id, else\n\
                          by file name); repeatable\n\
  --debug-file-directory=DIR  also look for separate debug info in DIR\n\
                          (DIR/.build-id/xx/yyyy.debug); repeatable\n\
  -j, --jobs=N            read and symbolize with N threads (default: the\n\
                          number of processors); -j 1 uses the least memory\n\
  --help                  display this help and exit\n\
  --version               output version information and exit\n\
\n\
Arguments may also come from @FILE.  Exit status is 0 on success, 1 on\n\
error.\n",
                program_name ());
}

struct Options
{
  std::string output;
  bool force = false;
  SymbolizerOptions sym;
  unsigned jobs = 0;
  std::vector<std::string> inputs;
};

bool
parse_options (int argc, char **argv, Options &o)
{
  enum { OPT_FORCE = OPT_FIRST_PROGRAM_OPTION };
  static const struct option longopts[] = {
    { "output", required_argument, nullptr, 'o' },
    { "force", no_argument, nullptr, OPT_FORCE },
    { "jobs", required_argument, nullptr, 'j' },
    MEMPROF_COMMON_LONG_OPTIONS,
    { nullptr, 0, nullptr, 0 },
  };
  int c;
  while ((c = getopt_long (argc, argv, "o:j:", longopts, nullptr)) != -1)
    switch (c)
      {
      case 'o':
        o.output = optarg;
        break;
      case OPT_FORCE:
        o.force = true;
        break;
      case 'j':
        {
          unsigned long long n;
          if (!parse_whole_number ("job count", optarg, 1, 1024, n))
            return false;
          o.jobs = static_cast<unsigned> (n);
          break;
        }
      default:
        if (handle_common_option (c, o.sym, usage))
          break;
        hint_help ();
        return false;
      }
  for (int i = optind; i < argc; i++)
    o.inputs.push_back (argv[i]);
  const char *missing = o.output.empty ()     ? "missing -o OUTPUT"
                        : o.inputs.empty ()   ? "no input profiles"
                                              : nullptr;
  if (missing)
    {
      report_error ("", missing);
      hint_help ();
      return false;
    }
  return true;
}

// An input named twice (under any spelling: ./a, a, a hard link) would
// count twice, and an input that is also the output would be replaced by
// the merge: both are refused unless --force.  Inputs that cannot be
// stat'ed are left for the reader to report.
bool
check_input_identities (const Options &o, const OutputFile &out)
{
  FileId out_id;
  bool have_out = out.existing (out_id);
  std::set<std::pair<dev_t, ino_t>> seen;
  for (const std::string &in : o.inputs)
    {
      struct stat st;
      if (stat (in.c_str (), &st) != 0)
        continue;
      const char *problem = nullptr;
      if (have_out && out_id == FileId{ st.st_dev, st.st_ino })
        problem = "given as both input and output";
      else if (!seen.emplace (st.st_dev, st.st_ino).second)
        problem = "given twice";
      if (problem && !o.force)
        {
          report_error (in, problem);
          return false;
        }
    }
  return true;
}

// Inputs are read and symbolized in parallel but merged strictly in
// command-line order, so LAST fields and the output do not depend on
// thread timing; a reader waits for its turn, which bounds memory to the
// merged result plus one table per other thread (the input whose turn it
// is goes straight into the result).
class Merger
{
public:
  Merger (const Options &o, const OutputFile &out)
    : opts_ (o), out_ (out), sym_ (o.sym)
  {}

  bool run ()
  {
    unsigned jobs = opts_.jobs ? opts_.jobs : std::thread::hardware_concurrency ();
    if (jobs == 0)
      jobs = 1;
    if (jobs > opts_.inputs.size ())
      jobs = static_cast<unsigned> (opts_.inputs.size ());
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; t++)
      threads.emplace_back ([this] { work (); });
    work ();
    for (std::thread &t : threads)
      t.join ();
    if (failed_)
      return false;
    try
      {
        // The merged contexts' types, looked up once each.
        resolve_layouts (result_, sym_);
        out_.write (write_indexed (result_));
      }
    catch (const FormatError &e)
      {
        report_error (output_name (opts_.output), e.what ());
        return false;
      }
    catch (const std::bad_alloc &)
      {
        report_error (output_name (opts_.output), "out of memory");
        return false;
      }
    return true;
  }

private:
  void work ()
  {
    for (;;)
      {
        size_t i = next_.fetch_add (1);
        if (i >= opts_.inputs.size () || failed_)
          return;
        // An input whose turn it already is goes straight into the
        // result: no table of its own, so one input at a time (-j 1, or a
        // single input) needs the result plus that input's mapped bytes.
        // No lock is held meanwhile: until merged_ moves past I, no other
        // thread touches the result.
        bool my_turn;
        {
          std::lock_guard<std::mutex> lock (merge_mu_);
          my_turn = merged_ == i;
        }
        if (my_turn)
          {
            bool ok = !failed_ && load (opts_.inputs[i], result_);
            std::lock_guard<std::mutex> lock (merge_mu_);
            if (!ok)
              failed_ = true;
            merged_ = i + 1;
            turn_cv_.notify_all ();
            continue;
          }
        ContextTable local;
        bool ok = load (opts_.inputs[i], local);
        std::unique_lock<std::mutex> lock (merge_mu_);
        turn_cv_.wait (lock, [&] { return merged_ == i || failed_; });
        if (!ok)
          failed_ = true;
        if (!failed_)
          try
            {
              result_.merge_from (local);
            }
          catch (const FormatError &e)
            {
              // Profiles of the two modes (ContextTable::note_access_granule)
              // or sampled unlike the inputs before it.
              std::lock_guard<std::mutex> report_lock (report_mu_);
              report_error (opts_.inputs[i], e.what ());
              failed_ = true;
            }
          catch (const std::bad_alloc &)
            {
              // Not std::terminate on a worker thread: one line, exit 1.
              std::lock_guard<std::mutex> report_lock (report_mu_);
              report_error (opts_.inputs[i], "out of memory");
              failed_ = true;
            }
        merged_ = i + 1;
        turn_cv_.notify_all ();
      }
  }

  bool load (const std::string &file, ContextTable &table)
  {
    try
      {
        ProfileBytes bytes (file);
        if (bytes.kind () == InputKind::INDEXED)
          {
            read_indexed (bytes.data (), bytes.size (), table);
            return true;
          }
        for (const RawProfile &p : read_raw_profiles (bytes.data (),
                                                      bytes.size ()))
          {
            std::vector<ModuleProblem> problems;
            add_raw_profile (p, sym_, table, problems);
            for (const ModuleProblem &mp : problems)
              {
                std::lock_guard<std::mutex> lock (report_mu_);
                if (mp.is_executable && mp.build_id_mismatch)
                  {
                    report_error (file, mp.message
                                          + " (give the profiled binary "
                                            "with --binary)");
                    return false;
                  }
                table.unsymbolized.emplace (mp.module, mp.message);
                if (warned_.insert (mp.module + '\0' + mp.message).second)
                  report_warning (file, format ("addresses in %s are left "
                                                "unsymbolized: %s",
                                                mp.module.c_str (),
                                                mp.message.c_str ()));
              }
          }
        return true;
      }
    catch (const FormatError &e)
      {
        std::lock_guard<std::mutex> lock (report_mu_);
        report_error (file, e.what ());
      }
    catch (const std::bad_alloc &)
      {
        std::lock_guard<std::mutex> lock (report_mu_);
        report_error (file, "out of memory");
      }
    return false;
  }

  const Options &opts_;
  const OutputFile &out_;
  Symbolizer sym_;
  std::atomic<size_t> next_{ 0 };
  std::mutex merge_mu_, report_mu_;
  std::condition_variable turn_cv_;
  size_t merged_ = 0;
  std::atomic<bool> failed_{ false };
  ContextTable result_;
  std::set<std::string> warned_;
};

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
      // Where the output goes is settled before any input is read: a
      // read-only output or a clash with an input fails at once.
      OutputFile out (o.output);
      if (!check_input_identities (o, out))
        return 1;
      Merger m (o, out);
      return m.run () ? 0 : 1;
    }
  catch (const FormatError &e)
    {
      report_error (output_name (o.output), e.what ());
    }
  return 1;
}
