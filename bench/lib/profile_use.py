"""The profile_use part of `make bench`: the whole -fheapprof-use loop
on bench/workloads/hot_cold_mix.c (hot list nodes allocated interleaved
with cold records of their size class), then the other workloads.

hot_cold_mix: trained once (instrumented, scale TRAIN_SCALE), merged,
rebuilt with -fheapprof-use -fheapprof-use-allocator=jemalloc; the plain
build links jemalloc too, so the two differ only by the hints.  Both
are timed alternately (CPU medians), and `perf stat` counts cache and
dTLB misses where the machine exposes counters.

The other workloads: each trained at the timing scale and rebuilt with
its own profile against jemalloc.  A workload where no call is hinted
must compile to the same machine code as its plain build (the pass
changes only hinted calls): its .text bytes are compared.  One where
calls are hinted is timed against its plain build."""

import os
import re
import shutil
import subprocess
import time

import measure
from workloads import WORKLOADS

TRAIN_SCALE = 100      # hot nodes need ~20 walks to show as not cold
MIX_SCALE = {False: 100, True: 40}   # timed runs of hot_cold_mix, by quick
SPECS_OPTS = ["-fheapprof-use-allocator=jemalloc", "-fheapprof-use-stats"]
STATS_RE = re.compile(r"(\d+) allocation calls, (\d+) matched \((\d+) hinted "
                      r"cold, (\d+) hinted hot, (\d+) conflicting, (\d+) "
                      r"classified but not hinted\), (\d+) unmatched")


def _run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)


class _Loop:
    """Build, train and rebuild one workload."""

    def __init__(self, bench, wl, work):
        self.bench, self.wl, self.work = bench, wl, work
        self.src = os.path.join(bench.srcdir, "bench", "workloads", wl.source)
        self.inc = os.path.dirname(self.src)
        self.specs = "-specs=" + os.path.join(bench.builddir, "memprof.specs")
        self.drv = "g++" if wl.cxx else "gcc"
        self.libs = list(wl.libs)

    def path(self, what):
        return os.path.join(self.work, "%s.%s" % (self.wl.name, what))

    def compile(self, extra, out, link=True, libs=()):
        argv = [self.drv, "-O2", "-g", "-I" + self.inc] + extra + [
            self.src] + ([] if link else ["-c"]) + ["-o", out]
        if link:
            argv += self.libs + list(libs)
        r = _run(argv)
        if r.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(argv), r.stdout[-400:]))
        return r.stdout

    def train(self, scale):
        prof = self.path("prof")
        shutil.rmtree(prof, ignore_errors=True)
        exe = self.path("train")
        self.compile([self.specs, "-fheapprof=" + prof], exe)
        r = measure.run_measured([exe, str(scale)])
        if r.returncode != 0:
            raise RuntimeError("training run of %s failed" % self.wl.name)
        data = self.path("memprofdata")
        raws = sorted(os.path.join(prof, f) for f in os.listdir(prof))
        m = _run([self.bench.merge_tool, "-o", data] + raws)
        if m.returncode != 0:
            raise RuntimeError("merge: " + m.stdout[-400:])
        return data, r.cpu

    def use_flags(self, data):
        return [self.specs, "-fheapprof-use=" + data] + SPECS_OPTS

    def stats(self, text):
        m = STATS_RE.search(text)
        if not m:
            raise RuntimeError("no -fheapprof-use-stats summary in: "
                               + text[-400:])
        keys = ("calls", "matched", "cold", "hot", "conflicting",
                "not_hinted", "unmatched")
        return dict(zip(keys, (int(x) for x in m.groups())))


def _time_pair(exes, scale, runs):
    """Alternate the builds RUNS times; medians of CPU and wall seconds
    and the outputs (which must agree)."""
    cpu = {k: [] for k in exes}
    wall = {k: [] for k in exes}
    outs = set()
    for i in range(runs):
        order = list(exes.items())
        if i % 2:
            order.reverse()
        for name, exe in order:
            r = measure.run_measured([exe, str(scale)])
            if r.returncode != 0:
                raise RuntimeError("%s failed (status %d)" % (exe,
                                                              r.returncode))
            cpu[name].append(r.cpu)
            wall[name].append(r.wall)
            outs.add(r.stdout)
    if len(outs) != 1:
        raise RuntimeError("the builds print different checksums")
    return {k: {"cpu": measure.median(cpu[k]), "wall": measure.median(wall[k]),
                "cpus": cpu[k]} for k in exes}


def _perf_counters(exe, scale):
    """cache-misses and dTLB-load-misses of one run, or None when the
    machine has no such counters (a VM without a PMU)."""
    perf = shutil.which("perf")
    if not perf:
        return None
    r = _run([perf, "stat", "-x", ",", "-e", "cache-misses,dTLB-load-misses",
              exe, str(scale)])
    counts = {}
    for line in r.stdout.splitlines():
        f = line.split(",")
        if len(f) >= 3 and f[2] in ("cache-misses", "dTLB-load-misses"):
            if not f[0].strip().isdigit():
                return None
            counts[f[2]] = int(f[0])
    return counts if len(counts) == 2 else None


def _text_bytes(obj, out):
    r = _run(["objcopy", "-O", "binary", "--only-section=.text", obj, out])
    if r.returncode != 0:
        raise RuntimeError("objcopy: " + r.stdout)
    with open(out, "rb") as f:
        return f.read()


def run(bench, source):
    sc = bench.scales
    work = os.path.join(bench.work, "profile_use")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    entry = {"source": source, "date": time.strftime("%Y-%m-%d %H:%M %Z"),
             "load_before": os.getloadavg(), "train_scale": TRAIN_SCALE,
             "scale": MIX_SCALE[bool(bench.quick)], "others_scale": sc.timing,
             "runs": max(sc.runs, 5), "others": {}}
    try:
        from workloads import Workload
        mix = _Loop(bench, Workload("hot_cold_mix", "hot_cold_mix.c"), work)
        data, train_cpu = mix.train(TRAIN_SCALE)
        entry["train_cpu"] = train_cpu
        plain, use = mix.path("plain"), mix.path("use")
        mix.compile([], plain, libs=["-ljemalloc"])
        entry["stats"] = mix.stats(mix.compile(mix.use_flags(data), use))
        entry["times"] = _time_pair({"plain": plain, "use": use},
                                    entry["scale"], entry["runs"])
        entry["speedup"] = (entry["times"]["plain"]["cpu"]
                            / entry["times"]["use"]["cpu"])
        counters = {k: _perf_counters(exe, entry["scale"])
                    for k, exe in (("plain", plain), ("use", use))}
        entry["perf"] = counters if all(counters.values()) else None

        for wl in bench.workloads:
            loop = _Loop(bench, wl, work)
            o = {}
            data, _ = loop.train(sc.timing)
            o["stats"] = loop.stats(loop.compile(loop.use_flags(data),
                                                 loop.path("use.o"),
                                                 link=False))
            loop.compile([], loop.path("plain.o"), link=False)
            hinted = o["stats"]["cold"] + o["stats"]["hot"]
            if not hinted:
                o["same_text"] = (
                    _text_bytes(loop.path("use.o"), loop.path("use.text"))
                    == _text_bytes(loop.path("plain.o"),
                                   loop.path("plain.text")))
            else:
                loop.compile(loop.use_flags(data), loop.path("use"))
                loop.compile([], loop.path("plain"), libs=["-ljemalloc"])
                t = _time_pair({"plain": loop.path("plain"),
                                "use": loop.path("use")}, sc.timing,
                               max(sc.runs, 3))
                o["times"] = t
                o["ratio"] = t["use"]["cpu"] / t["plain"]["cpu"]
            entry["others"][wl.name] = o
    except (RuntimeError, OSError) as e:
        entry["error"] = str(e)
    entry["load_after"] = os.getloadavg()
    return entry


def render(pu):
    """The results.md section."""
    if not pu:
        return []
    L = ["## Profile use: hot/cold allocation hints\n"]
    if "error" in pu:
        L.append("Not measured: %s\n" % pu["error"])
        return L
    t, s = pu["times"], pu["stats"]
    L.append(
        "`hot_cold_mix` (524,288 hot 32-byte list nodes walked in a "
        "shuffled order, each allocated next to a cold 32-byte record "
        "written once): trained instrumented at scale %d (%.1f CPU s), "
        "merged, rebuilt with `-fheapprof-use "
        "-fheapprof-use-allocator=jemalloc` (%d allocation calls, %d "
        "hinted cold, %d hinted hot); the plain build links jemalloc too. "
        "Scale %d, %d alternating runs each, medians; measured %s at "
        "commit %s on the shared 2-core VM (load average before / after: "
        "%s / %s): other jobs share the caches, read the figures to "
        "about 10%%.\n" % (
            pu["train_scale"], pu["train_cpu"], s["calls"], s["cold"],
            s["hot"], pu["scale"], pu["runs"], pu["date"],
            pu["source"] or "unknown",
            " ".join("%.1f" % x for x in pu["load_before"]),
            " ".join("%.1f" % x for x in pu["load_after"])))
    L.append("| build | CPU s | wall s | cache misses | dTLB load misses |")
    L.append("|---|---|---|---|---|")
    for k, label in (("plain", "plain, jemalloc"),
                     ("use", "-fheapprof-use, jemalloc")):
        p = pu["perf"][k] if pu.get("perf") else None
        L.append("| %s | %.2f | %.2f | %s | %s |" % (
            label, t[k]["cpu"], t[k]["wall"],
            format(p["cache-misses"], ",") if p else "n/a",
            format(p["dTLB-load-misses"], ",") if p else "n/a"))
    L.append("\n**Speed-up: %.2fx** (CPU medians).%s\n" % (
        pu["speedup"], "" if pu.get("perf") else
        " No hardware counters on this machine (`perf stat` reports them "
        "as not supported), so no miss counts."))
    if pu["others"]:
        L.append("The other workloads, each trained at scale %d and rebuilt "
                 "with its own profile against jemalloc. Where no call is "
                 "hinted the pass changes nothing, so the code is the plain "
                 "build's (checked: identical `.text` bytes); where calls "
                 "are hinted, the two builds are timed.\n" % pu["others_scale"])
        L.append("| workload | calls | matched | hinted cold | hinted hot "
                 "| conflicting | result |")
        L.append("|---|---|---|---|---|---|---|")
        for name, o in pu["others"].items():
            s = o["stats"]
            if "ratio" in o:
                res = "use / plain CPU %.2fx (%.2f s / %.2f s)" % (
                    o["ratio"], o["times"]["use"]["cpu"],
                    o["times"]["plain"]["cpu"])
            else:
                res = ("same .text as plain" if o["same_text"]
                       else "**.text differs**")
            L.append("| `%s` | %d | %d | %d | %d | %d | %s |" % (
                name, s["calls"], s["matched"], s["cold"], s["hot"],
                s["conflicting"], res))
        L.append("")
    return L
