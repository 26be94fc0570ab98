"""The tools_scale part of `make bench`: memprof-merge and memprof-dump
--json on one raw profile of 4 ** LEVELS distinct allocation contexts,
written by a real instrumented run of the program many_contexts.py
generates (1,048,576 contexts in full mode, 65,536 in quick mode).
Targets at a million contexts: merge <= 10 s and <= 1 GiB peak RSS,
dump --json <= 10 s."""

import glob
import os
import re
import subprocess
import time

import measure
import many_contexts

BRANCH = 4
TIME_TARGET = 10.0            # seconds, merge and dump --json
RSS_TARGET_KB = 1 << 20       # 1 GiB, merge


def _measure(bench, name, argv, runs, stdout_path=None):
    """Median CPU and wall seconds and peak RSS of RUNS runs of ARGV."""
    rs = []
    for _ in range(runs):
        r = measure.run_measured(argv, stdout_path=stdout_path)
        if r.returncode != 0:
            raise RuntimeError("%s failed (status %d): %s"
                               % (name, r.returncode, r.stderr.strip()[-400:]))
        rs.append(r)
    return {"cpu": measure.median([r.cpu for r in rs]),
            "wall": measure.median([r.wall for r in rs]),
            "cpus": [r.cpu for r in rs], "walls": [r.wall for r in rs],
            "rss_kb": max(r.max_rss_kb for r in rs)}


def run(bench, source):
    """Measure; returns the results entry (or one with "error")."""
    sc = bench.scales
    work = os.path.join(bench.work, "tools_scale")
    os.makedirs(work, exist_ok=True)
    prof = os.path.join(work, "prof")
    for f in glob.glob(os.path.join(prof, "*")):
        os.unlink(f)
    src = os.path.join(work, "many.c")
    exe = os.path.join(work, "many")
    many_contexts.generate(src, sc.scale_levels, BRANCH)
    entry = {"levels": sc.scale_levels, "branch": BRANCH,
             "expected_contexts": BRANCH ** sc.scale_levels,
             "runs": sc.scale_runs, "source": source,
             "date": time.strftime("%Y-%m-%d %H:%M %Z"),
             "load_before": os.getloadavg()}
    # -O0: no sibling calls, so every call path keeps its frames.
    cc = subprocess.run(["gcc", "-specs=" + os.path.join(bench.builddir,
                                                         "memprof.specs"),
                         "-O0", "-g", "-fheapprof=" + prof, src, "-o", exe],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        text=True)
    if cc.returncode != 0:
        entry["error"] = "compile failed: " + cc.stdout[-400:]
        return entry
    try:
        entry["program"] = _measure(bench, "the instrumented program", [exe],
                                    1)
        raws = glob.glob(os.path.join(prof, "*.memprofraw"))
        if len(raws) != 1:
            raise RuntimeError("the program wrote %d raw profiles, not 1"
                               % len(raws))
        raw = raws[0]
        entry["raw_bytes"] = os.path.getsize(raw)
        out = os.path.join(work, "merged.memprofdata")
        json_out = os.path.join(work, "dump.json")
        entry["merge"] = _measure(bench, "memprof-merge",
                                  [bench.merge_tool, "-o", out, raw],
                                  sc.scale_runs)
        entry["indexed_bytes"] = os.path.getsize(out)
        entry["dump_raw"] = _measure(bench, "memprof-dump --json (raw)",
                                     [bench.dump_tool, "--json", raw],
                                     sc.scale_runs, json_out)
        entry["json_bytes"] = os.path.getsize(json_out)
        entry["dump_indexed"] = _measure(
            bench, "memprof-dump --json (indexed)",
            [bench.dump_tool, "--json", out], sc.scale_runs, json_out)
        os.unlink(json_out)
        head = subprocess.run([bench.dump_tool, "--top=1", out],
                              stdout=subprocess.PIPE, text=True).stdout
        m = re.search(r"Summary: ([\d,]+) contexts", head)
        entry["contexts"] = int(m.group(1).replace(",", "")) if m else None
        if entry["contexts"] != entry["expected_contexts"]:
            raise RuntimeError("the merged profile holds %s contexts, not %d"
                               % (entry["contexts"],
                                  entry["expected_contexts"]))
    except (RuntimeError, OSError) as e:
        entry["error"] = str(e)
    entry["load_after"] = os.getloadavg()
    return entry


def targets(ts):
    """[(target, met, detail)] for the report's target table."""
    if not ts:
        return []
    n = ts.get("expected_contexts", 0)
    scale = "%s contexts" % format(n, ",")
    if "error" in ts:
        return [("memprof-merge and memprof-dump --json at scale", False,
                 ts["error"])]
    if n < 1000000:
        # Quick mode's smaller profile says nothing about the targets.
        return [("memprof-merge <= 10 s and <= 1 GiB, dump --json <= 10 s "
                 "at 1M contexts", None, "quick mode: %s only" % scale)]
    mg, dr = ts["merge"], ts["dump_raw"]
    return [("memprof-merge of %s <= 10 s and <= 1 GiB" % scale,
             mg["cpu"] <= TIME_TARGET and mg["rss_kb"] <= RSS_TARGET_KB,
             "%.1f CPU s (%.1f wall), %.0f MiB"
             % (mg["cpu"], mg["wall"], mg["rss_kb"] / 1024)),
            ("memprof-dump --json of %s <= 10 s" % scale,
             dr["cpu"] <= TIME_TARGET,
             "%.1f CPU s (%.1f wall)" % (dr["cpu"], dr["wall"]))]


def render(ts):
    """The results.md section."""
    if not ts:
        return []
    L = ["## Tools at scale\n"]
    if "error" in ts:
        L.append("Not measured: %s\n" % ts["error"])
        return L

    def mib(n):
        return "%.1f MiB" % (n / (1 << 20))
    L.append(
        "One raw profile of %s distinct allocation contexts (%s), written "
        "by a real instrumented run of a generated program with %d levels "
        "of %d functions, each calling every function of the next level "
        "(bench/lib/many_contexts.py; the run took %.1f CPU s); merged "
        "into an indexed profile of %s, and dumped as %s of JSON "
        "(written to a file). Median of %d run(s); CPU = user + system "
        "seconds, the figure the targets are judged on (as everywhere in "
        "this report: on a shared machine wall time also measures the "
        "neighbours). Measured "
        "%s at commit %s; load average before / after: %s / %s.\n" % (
            format(ts["contexts"], ","), mib(ts["raw_bytes"]),
            ts["levels"], ts["branch"], ts["program"]["cpu"],
            mib(ts["indexed_bytes"]), mib(ts["json_bytes"]), ts["runs"],
            ts["date"], ts["source"] or "unknown",
            " ".join("%.1f" % x for x in ts["load_before"]),
            " ".join("%.1f" % x for x in ts["load_after"])))
    L.append("| step | CPU s | wall s | peak RSS | target |")
    L.append("|---|---|---|---|---|")
    for key, label, target in (
            ("merge", "`memprof-merge -o OUT RAW`", "<= 10 s, <= 1 GiB"),
            ("dump_raw", "`memprof-dump --json RAW`", "<= 10 s"),
            ("dump_indexed", "`memprof-dump --json OUT` (indexed)", "")):
        e = ts[key]
        L.append("| %s | %.2f | %.2f | %.0f MiB | %s |" % (
            label, e["cpu"], e["wall"], e["rss_kb"] / 1024, target))
    L.append("")
    return L
