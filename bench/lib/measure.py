"""Running a program once and measuring it: wall time, CPU time and peak
resident set size.  The measuring is done by the small C wrapper
rusage-run (see rusage-run.c for why not from Python directly); this
module builds it once and parses its report."""

import math
import os
import subprocess
import tempfile
from dataclasses import dataclass

_WRAPPER = None


@dataclass
class RunResult:
    wall: float        # seconds, as seen by the wrapper
    cpu: float         # user + system seconds of the child
    max_rss_kb: int    # peak resident set size of the child, KiB
    returncode: int
    stdout: str
    stderr: str


def build_wrapper(srcdir, workdir, cc="gcc"):
    """Compile rusage-run into WORKDIR; must be called before run_measured."""
    global _WRAPPER
    out = os.path.join(workdir, "rusage-run")
    subprocess.run([cc, "-O2", "-o", out,
                    os.path.join(srcdir, "bench", "lib", "rusage-run.c")],
                   check=True)
    _WRAPPER = out


def run_measured(argv, env=None, cwd=None, stdout_path=None):
    """Run ARGV to completion under the wrapper.  Output goes through
    temporary files, not pipes, so a chatty child can never block; with
    STDOUT_PATH, stdout goes to that file and is not read back (gigabytes
    of JSON)."""
    with (open(stdout_path, "wb") if stdout_path
          else tempfile.TemporaryFile()) as out, \
            tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r") as report:
        rc = subprocess.call([_WRAPPER, report.name] + list(argv),
                             stdin=subprocess.DEVNULL, stdout=out,
                             stderr=err, env=env, cwd=cwd)
        fields = report.read().split()
        out.seek(0)
        err.seek(0)
        stdout = "" if stdout_path else out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    if len(fields) != 3:
        raise RuntimeError("rusage-run gave no report for %s: %s"
                           % (argv[0], stderr.strip()[-300:]))
    return RunResult(wall=float(fields[0]), cpu=float(fields[1]),
                     max_rss_kb=int(fields[2]), returncode=rc,
                     stdout=stdout, stderr=stderr)


def median(values):
    s = sorted(values)
    n = len(s)
    if n == 0:
        raise ValueError("median of nothing")
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2


def geomean(values):
    vals = [v for v in values if v is not None and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))
