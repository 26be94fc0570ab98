"""Reading this project's profiles through `memprof-dump --json` into
per-site allocation counts and bytes, and checking records against
expected field values."""

import json
import subprocess

from sites import Frame, SiteTable, plain_function_name, site_frame


def dump_json(dump_tool, profiles):
    """Run memprof-dump --json over PROFILES; return the parsed JSON."""
    proc = subprocess.run([dump_tool, "--json"] + list(profiles),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        raise RuntimeError("memprof-dump --json failed: %s"
                           % proc.stderr.strip()[-500:])
    return json.loads(proc.stdout)


def demangle_all(names):
    """{mangled: demangled} for the C++ symbol names among NAMES (names
    taken from ELF symbol tables come mangled; DHAT prints them
    demangled).  One c++filt process for the lot."""
    mangled = sorted({n for n in names if n and n.startswith("_Z")})
    if not mangled:
        return {}
    try:
        proc = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n",
                              stdout=subprocess.PIPE, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return {}
    out = proc.stdout.splitlines()
    return dict(zip(mangled, out)) if len(out) == len(mangled) else {}


def _frames(record, names):
    return [Frame(names.get(f.get("function"), f.get("function")),
                  f.get("file"), f.get("line"))
            for f in record.get("stack", [])]


def read_memprof(data):
    """Return (SiteTable, totals dict) from memprof-dump's JSON."""
    table = SiteTable()
    total_blocks = total_bytes = 0
    names = demangle_all(f.get("function") for rec in data.get("records", [])
                         for f in rec.get("stack", []))
    for rec in data.get("records", []):
        count = int(rec.get("alloc_count", 0))
        nbytes = int(rec.get("total_size", 0))
        table.add(site_frame(_frames(rec, names)), count, nbytes)
        total_blocks += count
        total_bytes += nbytes
    return table, {"blocks": total_blocks, "bytes": total_bytes}


def parse_expectations(stderr_text):
    """The workloads' "memprof-expect: fn=NAME FIELD==N ..." lines."""
    expectations = []
    for line in stderr_text.splitlines():
        if not line.startswith("memprof-expect:"):
            continue
        words = line.split()[1:]
        fn = words[0].split("=", 1)[1]
        checks = []
        for w in words[1:]:
            field, value = w.split("==")
            checks.append((field, int(value)))
        expectations.append((fn, checks))
    return expectations


def check_expectations(data, expectations):
    """Compare each expectation with the record(s) whose frame 0 is the
    named function (summed).  Returns rows (fn, field, expected, got)."""
    rows = []
    for fn, checks in expectations:
        recs = [r for r in data.get("records", [])
                if r.get("stack") and plain_function_name(
                    r["stack"][0].get("function")) == fn]
        for field, expected in checks:
            got = sum(int(r.get(field, 0)) for r in recs) if recs else None
            rows.append((fn, field, expected, got))
    return rows
