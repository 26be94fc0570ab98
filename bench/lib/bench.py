"""The `make bench` driver: builds the workloads five ways, times them,
runs DHAT, compares allocation sites, measures compile time, code size
and memprof-merge throughput, and writes results.md and the chart.

Invoked by bench/run-bench; see bench/README.md for the interface."""

import argparse
import glob
import os
import platform
import shutil
import subprocess
import sys
import time

import builds as builds_mod
import dhat_profile
import fidelity
import large_tu
import measure
import memprof_profile
import perf_profile
import profile_use
import report
import sampled_accuracy
import tools_scale
from workloads import FULL, QUICK, WORKLOADS


def log(msg):
    print("bench: " + msg, flush=True)


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


# The parts of a run, in order; --parts (BENCH_PARTS) picks some of them.
PARTS = ("workloads", "compile", "merge", "tools_scale", "profile_use")


def raw_profiles(prof_dir, build):
    return sorted(glob.glob(os.path.join(prof_dir, build.raw_glob)))


class Bench:
    def __init__(self, args):
        self.srcdir = os.path.abspath(args.srcdir)
        self.builddir = os.path.abspath(args.builddir)
        self.quick = args.quick
        self.scales = QUICK if args.quick else FULL
        if args.scale or args.runs:
            # A reduced run on a loaded machine: other scale or rounds.
            import dataclasses
            self.scales = dataclasses.replace(
                self.scales, timing=args.scale or self.scales.timing,
                runs=args.runs or self.scales.runs)
        self.work = fresh_dir(os.path.join(self.builddir, "bench-work"))
        self.outdir = os.path.abspath(
            args.output or (os.path.join(self.builddir, "bench-results")
                            if args.quick
                            else os.path.join(self.srcdir, "bench")))
        os.makedirs(self.outdir, exist_ok=True)
        self.workloads = [w for w in WORKLOADS
                          if not args.only or w.name in args.only.split(",")]
        self.only_builds = args.builds.split(",") if args.builds else None
        self.dhat = args.dhat
        self.tools = os.path.join(self.builddir, "binutils-tools")
        self.notes = []
        self.perf = args.perf if args.perf is not None else not args.quick
        self.parts = [p for p in (args.parts or ",".join(PARTS)).split(",")
                      if p]
        unknown = [p for p in self.parts if p not in PARTS]
        if unknown:
            raise SystemExit("run-bench: unknown part(s) %s (known: %s)"
                             % (",".join(unknown), ",".join(PARTS)))
        self.results = {"quick": self.quick, "workloads": {},
                        "scales": self.scales.__dict__}
        # A run of some parts updates the recorded results in place: the
        # other parts' figures (and the header describing their run) stay.
        self.partial = set(self.parts) != set(PARTS)
        recorded = os.path.join(self.outdir, "results.json")
        if self.partial and os.path.exists(recorded):
            import json
            with open(recorded) as f:
                self.results = json.load(f)

    # --- set-up -----------------------------------------------------------

    def detect(self):
        measure.build_wrapper(self.srcdir, self.work)
        clang, clangxx = builds_mod.find_clang()
        self.builds = builds_mod.make_builds(self.builddir, clang=clang,
                                             clangxx=clangxx)
        if self.only_builds:
            self.builds = [b for b in self.builds
                           if b.name in self.only_builds]
        if not clang:
            self.notes.append("clang not found: no LLVM MemProf comparison.")
        self.valgrind = shutil.which("valgrind")
        if not self.valgrind:
            self.notes.append("valgrind not found: no DHAT comparison.")
        self.dump_tool = os.path.join(self.tools, "memprof-dump")
        self.merge_tool = os.path.join(self.tools, "memprof-merge")
        # BENCH_SOURCE names the source when the build tree was not
        # configured from --srcdir itself (e.g. from a git archive).
        self.source = (os.environ.get("BENCH_SOURCE")
                       or source_revision(self.srcdir))
        if "machine" not in self.results or not self.partial:
            self.results["machine"] = machine_info(self.builds)
            self.results["machine"]["source"] = self.source

    def prof_dir(self, build, wl):
        return os.path.join(self.work, "prof", build.name, wl.name)

    def exe(self, build, wl):
        return os.path.join(self.work, "bin", build.runs_as or build.name,
                            wl.name)

    def build_all(self):
        include = os.path.join(self.srcdir, "bench", "workloads")
        self.built = {}
        for wl in self.workloads:
            res = self.results["workloads"].setdefault(wl.name, {})
            res["description"] = wl.description
            res["text_size"] = {}
            for b in self.builds:
                os.makedirs(os.path.dirname(self.exe(b, wl)), exist_ok=True)
                os.makedirs(self.prof_dir(b, wl), exist_ok=True)
                if b.runs_as:
                    # Another build's binary, run with other options.
                    if (b.runs_as, wl.name) in self.built:
                        self.built[(b.name, wl.name)] = True
                    continue
                obj = self.exe(b, wl) + ".o"
                err = builds_mod.compile_and_link(
                    b, os.path.join(include, wl.source), wl.cxx, wl.libs,
                    obj, self.exe(b, wl), self.prof_dir(b, wl), include)
                if err:
                    self.notes.append("%s: %s build failed:\n```\n%s\n```"
                                      % (wl.name, b.name, err))
                    log("%s: %s build FAILED" % (wl.name, b.name))
                    continue
                self.built[(b.name, wl.name)] = True
                res["text_size"][b.name] = builds_mod.text_size(obj)
            log("built %s (%s)" % (wl.name, ", ".join(
                b.name for b in self.builds
                if (b.name, wl.name) in self.built)))

    def have(self, build, wl):
        return (build.name, wl.name) in self.built

    # --- timing -----------------------------------------------------------

    def time_workloads(self):
        sc = self.scales
        for wl in self.workloads:
            res = self.results["workloads"][wl.name]
            active = [b for b in self.builds if self.have(b, wl)]
            samples = {b.name: [] for b in active}
            outputs = {}
            for rep in range(sc.runs):
                # Rotate the order so no build always runs first (cache,
                # frequency and page-cache effects spread evenly).
                order = active[rep % len(active):] + active[:rep % len(active)]
                for b in order:
                    if b.profiling:
                        fresh_dir(self.prof_dir(b, wl))
                    r = measure.run_measured([self.exe(b, wl),
                                              str(sc.timing)],
                                             env=b.env(self.prof_dir(b, wl)))
                    if r.returncode != 0:
                        self.notes.append(
                            "%s: %s run exited with %d: %s" % (
                                wl.name, b.name, r.returncode,
                                r.stderr.strip()[-400:]))
                        continue
                    samples[b.name].append(r)
                    outputs.setdefault(b.name, r.stdout)
            res["runs"] = {}
            for b in active:
                runs = samples[b.name]
                if not runs:
                    continue
                entry = {"wall": measure.median([r.wall for r in runs]),
                         "walls": [r.wall for r in runs],
                         "cpu": measure.median([r.cpu for r in runs]),
                         "cpus": [r.cpu for r in runs],
                         "rss_kb": measure.median([r.max_rss_kb
                                                   for r in runs])}
                if b.profiling:
                    files = raw_profiles(self.prof_dir(b, wl), b)
                    entry["profile_files"] = len(files)
                    entry["profile_bytes"] = sum(os.path.getsize(f)
                                                 for f in files)
                    if b.name.startswith("memprof") and files:
                        entry["contexts"] = self.count_contexts(files)
                res["runs"][b.name] = entry
            ref = outputs.get("gcc")
            res["outputs_agree"] = all(o == ref for o in outputs.values())
            if not res["outputs_agree"]:
                self.notes.append("%s: outputs differ between builds: %s"
                                  % (wl.name, outputs))
            res["output"] = (ref or "").strip()
            for b in active:
                base = res["runs"].get(b.baseline)
                mine = res["runs"].get(b.name)
                if b.profiling and base and mine:
                    # CPU time is the headline figure: on a shared
                    # machine wall time also measures the neighbours.
                    mine["slowdown"] = mine["cpu"] / base["cpu"]
                    mine["slowdown_wall"] = mine["wall"] / base["wall"]
                    # Fastest over fastest: the least disturbed runs, a
                    # cross-check when other jobs share the machine.
                    mine["slowdown_min"] = min(mine["cpus"]) / min(base["cpus"])
                    mine["rss_ratio"] = mine["rss_kb"] / base["rss_kb"]
            log("timed %s: %s" % (wl.name, ", ".join(
                "%s %.3fs" % (n, e["cpu"])
                for n, e in res["runs"].items())))

    def count_contexts(self, files):
        """Allocation contexts in the last run's raw profiles (None when
        memprof-dump cannot read them: the failure is a note)."""
        try:
            data = sampled_accuracy.profile_json(
                self.dump_tool, self.merge_tool, files, self.work)
        except (RuntimeError, ValueError, OSError,
                subprocess.CalledProcessError) as e:
            self.notes.append("counting contexts of %s: %s"
                              % (files[0], str(e)[-200:]))
            return None
        return len(data.get("records", []))

    # --- the sampling mode's estimates ---------------------------------------

    def sampled_accuracy(self):
        """Compare the last timed runs' profiles, exact and sampled (the
        profile directories keep the last run's), site by site."""
        builds = {b.name: b for b in self.builds}
        exact, sampled = builds.get("memprof"), builds.get("memprof-sampled")
        if not exact or not sampled:
            return
        for wl in self.workloads:
            res = self.results["workloads"][wl.name]
            if not self.have(exact, wl) or not self.have(sampled, wl):
                continue
            try:
                data = [sampled_accuracy.profile_json(
                    self.dump_tool, self.merge_tool,
                    raw_profiles(self.prof_dir(b, wl), b), self.work)
                    for b in (exact, sampled)]
            except (RuntimeError, ValueError, OSError,
                    subprocess.CalledProcessError) as e:
                res["sampled_accuracy"] = {"error": str(e)[-400:]}
                continue
            acc = sampled_accuracy.compare(data[0], data[1])
            res["sampled_accuracy"] = acc
            log("sampled %s: %d of %d sites (%.0f%% of the bytes) within "
                "%.0f%%, worst %+.1f%%" % (
                    wl.name, acc["within"], acc["sites"],
                    100.0 * acc["covered_bytes"] / max(acc["total_bytes"], 1),
                    100 * acc["tolerance"],
                    100 * (acc["worst"]["error"] if acc["worst"] else 0)))

    # --- DHAT and fidelity -------------------------------------------------

    def dhat_and_fidelity(self):
        sc = self.scales
        gcc = next(b for b in self.builds if b.name == "gcc")
        ours = next(b for b in self.builds if b.name == "memprof")
        for wl in self.workloads:
            res = self.results["workloads"][wl.name]
            if not self.have(gcc, wl):
                continue
            argv = [self.exe(gcc, wl), str(sc.dhat)]
            base = [measure.run_measured(argv) for _ in range(3)]
            base_cpu = measure.median([r.cpu for r in base])
            dhat_table = None
            if self.valgrind:
                dhat_dir = fresh_dir(os.path.join(self.work, "dhat", wl.name))
                walls = []
                for i in range(sc.dhat_runs):
                    out = os.path.join(dhat_dir, "dhat.out.%d" % i)
                    r = measure.run_measured(
                        [self.valgrind, "--tool=dhat", "--read-inline-info=yes",
                         "--dhat-out-file=" + out] + argv)
                    if r.returncode != 0 or r.stdout != base[0].stdout:
                        self.notes.append("%s: DHAT run failed or output "
                                          "differs: %s" % (
                                              wl.name, r.stderr[-400:]))
                        continue
                    walls.append(r.cpu)
                    dhat_out = out
                if walls:
                    res["dhat"] = {"cpu": measure.median(walls),
                                   "base_cpu": base_cpu,
                                   "slowdown": measure.median(walls)
                                   / base_cpu,
                                   "scale": sc.dhat}
                    dhat_table, dhat_totals = dhat_profile.read_dhat(dhat_out)
                    res["dhat"]["totals"] = dhat_totals
            if self.have(ours, wl):
                self.fidelity(wl, ours, argv[1:], dhat_table, res)
            log("DHAT/fidelity %s done" % wl.name)

    def fidelity(self, wl, ours, args, dhat_table, res):
        pdir = fresh_dir(self.prof_dir(ours, wl))
        r = measure.run_measured([self.exe(ours, wl)] + args)
        fid = res.setdefault("fidelity", {})
        if r.returncode != 0:
            fid["error"] = "instrumented run failed: %s" % r.stderr[-400:]
            return
        files = raw_profiles(pdir, ours)
        if not files:
            fid["error"] = "the instrumented run wrote no raw profile"
            return
        try:
            data = memprof_profile.dump_json(self.dump_tool, files)
        except (RuntimeError, ValueError, OSError) as e:
            fid["error"] = str(e)
            return
        ours_table, ours_totals = memprof_profile.read_memprof(data)
        fid["ours_totals"] = ours_totals
        expectations = memprof_profile.parse_expectations(r.stderr)
        fid["access_checks"] = memprof_profile.check_expectations(
            data, expectations)
        if dhat_table is not None:
            rows = fidelity.compare(dhat_table, ours_table)
            fid["sites"] = [row.__dict__ for row in rows]
            fid["mismatches"] = sum(1 for row in rows
                                    if not row.matches and not row.explained)
            fid["explained"] = sum(1 for row in rows
                                   if not row.matches and row.explained)

    # --- compile time, code size, merge ------------------------------------

    def compile_time(self):
        sc = self.scales
        src = os.path.join(self.work, "large_tu.c")
        large_tu.generate(src, sc.large_tu_functions)
        with open(src) as f:
            lines = sum(1 for _ in f)
        entry = {"lines": lines, "functions": sc.large_tu_functions * 5 + 1,
                 "times": {}, "text": {}}
        active = [b for b in self.builds if not b.runs_as]
        samples = {b.name: [] for b in active}
        for rep in range(sc.compile_runs):
            for b in active:
                obj = os.path.join(self.work, "large_tu.%s.o" % b.name)
                cmd = ([b.cc] + b.cflags(os.path.join(self.work, "prof"))
                       + ["-c", src, "-o", obj])
                r = measure.run_measured(cmd)
                if r.returncode != 0:
                    self.notes.append("large TU: %s compile failed: %s"
                                      % (b.name, r.stderr[-600:]))
                    continue
                samples[b.name].append(r.cpu)
                entry["text"][b.name] = builds_mod.text_size(obj)
        for b in active:
            if samples[b.name]:
                entry["times"][b.name] = measure.median(samples[b.name])
        self.results["compile"] = entry
        log("compile times: %s" % entry["times"])

    def merge_throughput(self):
        ours = next(b for b in self.builds if b.name == "memprof")
        wl = next((w for w in self.workloads if w.name == "cxx_containers"),
                  self.workloads[0])
        if not self.have(ours, wl) or not os.access(self.merge_tool, os.X_OK):
            self.notes.append("memprof-merge throughput not measured "
                              "(no instrumented build or no memprof-merge).")
            return
        pdir = fresh_dir(self.prof_dir(ours, wl))
        n = self.scales.merge_profiles
        for i in range(n):
            r = measure.run_measured([self.exe(ours, wl), "1"])
            if r.returncode != 0:
                self.notes.append("merge input run failed: %s"
                                  % r.stderr[-300:])
                return
        files = raw_profiles(pdir, ours)
        size = sum(os.path.getsize(f) for f in files)
        out = os.path.join(self.work, "merged.memprofdata")
        walls = []
        for _ in range(3):
            r = measure.run_measured([self.merge_tool, "-o", out] + files)
            if r.returncode != 0:
                self.notes.append("memprof-merge failed: %s"
                                  % r.stderr.strip()[-400:])
                return
            walls.append(r.cpu)
        wall = measure.median(walls)
        self.results["merge"] = {
            "workload": wl.name, "profiles": len(files), "input_bytes": size,
            "output_bytes": os.path.getsize(out), "wall": wall,
            "profiles_per_s": len(files) / wall,
            "mb_per_s": size / 1e6 / wall}
        log("merge: %d profiles (%d bytes) in %.3fs"
            % (len(files), size, wall))

    def where_time_goes(self):
        """perf profiles of the profiling builds at the timed scale."""
        perf = perf_profile.available()
        if not perf:
            self.notes.append("perf not usable: no time breakdown.")
            return
        for wl in self.workloads:
            res = self.results["workloads"][wl.name]
            for b in self.builds:
                if not b.profiling or not self.have(b, wl) or b.runs_as:
                    continue
                fresh_dir(self.prof_dir(b, wl))
                data = os.path.join(self.work, "perf.%s.%s.data"
                                    % (b.name, wl.name))
                prof = perf_profile.profile(
                    perf, [self.exe(b, wl), str(self.scales.timing)], data)
                if prof:
                    res.setdefault("perf", {})[b.name] = prof
            log("perf %s done" % wl.name)

    def profile_use(self):
        pu = profile_use.run(self, self.source)
        self.results["profile_use"] = pu
        if "error" in pu:
            self.notes.append("profile_use: " + pu["error"])
            log("profile_use: " + pu["error"])
        else:
            log("profile_use: hot_cold_mix speed-up %.2fx with "
                "-fheapprof-use against jemalloc" % pu["speedup"])

    def tools_at_scale(self):
        ts = tools_scale.run(self, self.source)
        self.results["tools_scale"] = ts
        if "error" in ts:
            self.notes.append("tools_scale: " + ts["error"])
            log("tools_scale: " + ts["error"])
        else:
            log("tools_scale: %d contexts: merge %.2f CPU s %.0f MiB, dump "
                "--json %.2f CPU s" % (ts["contexts"], ts["merge"]["cpu"],
                                       ts["merge"]["rss_kb"] / 1024,
                                       ts["dump_raw"]["cpu"]))

    def run(self):
        t0 = time.time()
        if not self.partial:
            self.results["load_before"] = os.getloadavg()
        self.detect()
        if "workloads" in self.parts:
            self.build_all()
            self.time_workloads()
            self.sampled_accuracy()
            if self.dhat:
                self.dhat_and_fidelity()
        if "compile" in self.parts:
            self.compile_time()
        if "merge" in self.parts:
            if not hasattr(self, "built"):
                self.build_all()
            self.merge_throughput()
        if "workloads" in self.parts and self.perf:
            self.where_time_goes()
        if "tools_scale" in self.parts:
            self.tools_at_scale()
        if "profile_use" in self.parts:
            self.profile_use()
        if self.partial:
            self.results["notes"] = self.results.get("notes", []) + self.notes
        else:
            self.results["elapsed"] = time.time() - t0
            self.results["load_after"] = os.getloadavg()
            self.results["notes"] = self.notes
        md = report.write(self.results, self.builds, self.outdir, self.work)
        print(report.summary(self.results))
        log("wrote %s" % md)
        return 0


def source_revision(srcdir):
    """The commit of the source tree, or '' outside git."""
    try:
        rev = subprocess.run(["git", "-C", srcdir, "rev-parse", "--short",
                              "HEAD"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
        dirty = subprocess.run(["git", "-C", srcdir, "status", "--porcelain",
                                "--untracked-files=no"],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return ""
    rev = rev.strip()
    return rev + (" with uncommitted changes" if rev and dirty.strip()
                  else "")


def machine_info(builds):
    def first_line(cmd):
        try:
            return subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True
                                  ).stdout.splitlines()[0].strip()
        except (OSError, IndexError):
            return "unknown"
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    compilers = {}
    for b in builds:
        compilers.setdefault(b.cc, first_line([b.cc, "--version"]))
    return {"date": time.strftime("%Y-%m-%d %H:%M %Z"),
            "kernel": platform.release(), "cpu": cpu,
            "cpus": os.cpu_count(), "compilers": compilers,
            "valgrind": first_line(["valgrind", "--version"]),
            "os": first_line(["sh", "-c", ". /etc/os-release; "
                              "echo $PRETTY_NAME"])}


def main(argv=None):
    p = argparse.ArgumentParser(prog="run-bench",
                                description="gcc-memprof benchmarks")
    p.add_argument("--srcdir", required=True)
    p.add_argument("--builddir", required=True)
    p.add_argument("--quick", action="store_true",
                   default=os.environ.get("BENCH_QUICK", "") not in ("", "0"))
    p.add_argument("--only", help="comma-separated workload names")
    p.add_argument("--parts", default=os.environ.get("BENCH_PARTS", ""),
                   help="comma-separated parts to run (%s; default: all); "
                   "a partial run updates the recorded results.json"
                   % ",".join(PARTS))
    p.add_argument("--output", help="where results.md and the chart go")
    p.add_argument("--builds", help="comma-separated builds to time (of "
                   "gcc, memprof, memprof-hist, memprof-sampled, clang, "
                   "llvm-memprof, "
                   "llvm-memprof-fp; default: all)")
    p.add_argument("--scale", type=int, help="scale of the timed runs "
                   "(default: 100, quick: 10)")
    p.add_argument("--runs", type=int, help="timed runs per build "
                   "(default: 11, quick: 3)")
    p.add_argument("--no-dhat", dest="dhat", action="store_false",
                   help="skip the DHAT runs and the fidelity comparison")
    p.add_argument("--perf", action="store_true", default=None,
                   help="profile the instrumented builds with perf "
                   "(default in full mode)")
    p.add_argument("--no-perf", dest="perf", action="store_false")
    p.add_argument("--rerender", metavar="RESULTS_JSON",
                   help="only rewrite results.md and the chart from a "
                   "results.json of an earlier run")
    args = p.parse_args(argv)
    if args.rerender:
        return rerender(args)
    return Bench(args).run()


def rerender(args):
    import json
    with open(args.rerender) as f:
        results = json.load(f)
    # Figures added to the report after that run was made.
    for res in results["workloads"].values():
        runs = res.get("runs", {})
        for name, entry in runs.items():
            base = runs.get({"memprof": "gcc", "memprof-hist": "gcc",
                             "memprof-sampled": "gcc",
                             "llvm-memprof": "clang",
                             "llvm-memprof-fp": "clang"}.get(name, ""))
            if base and "slowdown" in entry and "slowdown_min" not in entry:
                entry["slowdown_min"] = min(entry["cpus"]) / min(base["cpus"])
    clang, clangxx = builds_mod.find_clang()
    builds = builds_mod.make_builds(os.path.abspath(args.builddir),
                                    clang=clang, clangxx=clangxx)
    outdir = os.path.abspath(args.output or os.path.dirname(args.rerender))
    os.makedirs(outdir, exist_ok=True)
    work = fresh_dir(os.path.join(os.path.abspath(args.builddir),
                                  "bench-rerender"))
    md = report.write(results, builds, outdir, work)
    print(report.summary(results))
    log("wrote %s" % md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
