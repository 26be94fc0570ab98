"""Where the time of an instrumented build goes: one `perf record` of a
run, reduced to the top symbols and the share of each loaded object
(the instrumented program itself, the profiling runtime, libc, the
kernel)."""

import os
import re
import shutil
import subprocess

_LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)(\s+-\s+-)?\s*$")
_DSO_LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s*$")


def available():
    perf = shutil.which("perf")
    if not perf:
        return None
    probe = subprocess.run([perf, "record", "-q", "-o", os.devnull, "true"],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    return perf if probe.returncode == 0 else None


def _report(perf, data, sort, limit):
    out = subprocess.run([perf, "report", "-i", data, "--stdio", "--sort",
                          sort, "--percent-limit", str(limit)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    return [line for line in out.splitlines()
            if line.strip() and not line.startswith("#")]


def profile(perf, argv, data, top=10):
    """Record ARGV into DATA; return {"symbols": [(pct, dso, sym)],
    "dsos": [(pct, dso)]} or None when perf fails."""
    rec = subprocess.run([perf, "record", "-q", "-o", data, "--"] + argv,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    if rec.returncode != 0:
        return None
    symbols = []
    for line in _report(perf, data, "dso,symbol", 0.5):
        m = _LINE.match(line)
        if m:
            symbols.append((float(m.group(1)), m.group(2),
                            m.group(4).strip()))
    dsos = []
    for line in _report(perf, data, "dso", 0.5):
        m = _DSO_LINE.match(line)
        if m:
            dsos.append((float(m.group(1)), m.group(2)))
    return {"symbols": symbols[:top], "dsos": dsos}
