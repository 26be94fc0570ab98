#!/usr/bin/env python3
"""Checks of the exports of memprof.runtime/live-heap-phases.c's profile
(viewers.exp).  Exit 0 when the check holds, else 1 with the reason.

  viewers-check.py dhat EXPORT.json     program points' numbers
  viewers-check.py dom DOM.html         dh_view.html rendered the tree
  viewers-check.py pprof-top TEXT INDEX `go tool pprof -top -unit=B` lines
  viewers-check.py pprof-raw TEXT PROGRAM `go tool pprof -raw`: the mappings
"""

import json
import re
import sys

MiB = 1024 * 1024
# Per allocating function: allocated bytes and blocks, max live bytes
# and blocks, at the peak, at exit.
EXPECTED = {
    "phase_one_block": dict(tb=100 * MiB, tbk=100, mb=100 * MiB, mbk=100,
                            gb=100 * MiB, gbk=100, eb=0, ebk=0),
    "phase_two_block": dict(tb=30 * MiB, tbk=30, mb=30 * MiB, mbk=30,
                            gb=0, gbk=0, eb=10 * MiB, ebk=10),
    "small_block": dict(tb=48000, tbk=1000, mb=48000, mbk=1000,
                        gb=48000, gbk=1000, eb=48000, ebk=1000),
}
PPROF = {
    "alloc_space": {"phase_one_block": 100 * MiB, "phase_two_block": 30 * MiB,
                    "small_block": 48000},
    "inuse_space": {"phase_two_block": 10 * MiB, "small_block": 48000},
    "peak_space": {"phase_one_block": 100 * MiB, "small_block": 48000},
    "max_live_space": {"phase_one_block": 100 * MiB,
                       "phase_two_block": 30 * MiB, "small_block": 48000},
}


def fail(msg):
    print(msg)
    sys.exit(1)


def check_dhat(path):
    d = json.load(open(path))
    for k, v in (("dhatFileVersion", 2), ("mode", "heap")):
        if d.get(k) != v:
            fail("%s is %r" % (k, d.get(k)))
    if d["ftbl"][0] != "[root]":
        fail("ftbl[0] is %r" % d["ftbl"][0])
    seen = set()
    for pp in d["pps"]:
        frame0 = d["ftbl"][pp["fs"][0]]
        m = re.match(r"0x[0-9a-f]+: (\w+) \(", frame0)
        if not m or m.group(1) not in EXPECTED:
            fail("unexpected program point at %r" % frame0)
        name = m.group(1)
        for k, v in EXPECTED[name].items():
            if pp[k] != v:
                fail("%s: %s is %d, not %d" % (name, k, pp[k], v))
        if d["ftbl"][pp["fs"][1]].split(": ")[1].split(" ")[0] != "main":
            fail("%s: frame 1 is not main" % name)
        seen.add(name)
    if seen != set(EXPECTED):
        fail("program points: %s" % sorted(seen))
    if d["tg"] > d["te"]:
        fail("tg after te")


def check_dom(path):
    text = re.sub(r"<[^>]*>", "", open(path).read())
    # The root and one child per program point, each with its own numbers
    # and its first frame.
    if not re.search(r"PP 1/1 \(3 children\)", text):
        fail("no root with 3 children in the rendered page")
    want = [
        (r"phase_two_block", r"At t-gmax: 0 bytes", r"Max: +31,457,280 bytes in 30 blocks",
         r"At t-end: +10,485,760 bytes"),
        (r"phase_one_block", r"At t-gmax: 104,857,600 bytes", r"Max: +104,857,600 bytes",
         r"At t-end: +0 bytes"),
        (r"small_block", r"At t-gmax: 48,000 bytes", r"Max: +48,000 bytes",
         r"At t-end: +48,000 bytes"),
    ]
    nodes = re.split(r"PP 1\.\d/3 \{", text)[1:]
    if len(nodes) != 3:
        fail("%d child nodes rendered, not 3" % len(nodes))
    for fn, *lines in want:
        node = [n for n in nodes if re.search(r"#1: 0x[0-9a-f]+: %s " % fn, n)]
        if len(node) != 1:
            fail("no rendered node for %s" % fn)
        for l in lines:
            if not re.search(l, node[0]):
                fail("%s: no %r in its node" % (fn, l))


def check_pprof_top(path, index):
    rows = {}
    for line in open(path):
        m = re.match(r"\s*(\d+)B?\s+\S+%\s+\S+%\s+\d+B?\s+\S+%\s+(\S+)$", line)
        if m and int(m.group(1)):
            rows[m.group(2)] = int(m.group(1))
    if rows != PPROF[index]:
        fail("flat values %s, want %s" % (rows, PPROF[index]))


def check_pprof_raw(path, program):
    text = open(path).read()
    if "binary filename not available" in text:
        fail("pprof found no binary's name")
    if "Mappings\n" not in text:
        fail("no Mappings section")
    # "ID: START/LIMIT/OFFSET FILE [BUILDID] [FN][FL][LN][IN]", in order.
    files = []
    for line in text.split("Mappings\n", 1)[1].splitlines():
        m = re.match(r"\s*(\d+): 0x0/0x[0-9a-f]+/0x0 (\S+)\s+\[FN\]\[FL\]\[LN\]\[IN\]$",
                     line)
        if not m:
            fail("unexpected mapping line %r" % line)
        files.append(m.group(2))
    if not files or files[0] != program:
        fail("mappings %s: the program %s is not first" % (files, program))
    if not any(re.search(r"/libc\.so\.6$", f) for f in files[1:]):
        fail("mappings %s: no libc.so.6" % files)
    # Every location names one of them.
    for m in re.finditer(r"^\s*\d+: 0x[0-9a-f]+ M=(\d+) ", text, re.M):
        if not 1 <= int(m.group(1)) <= len(files):
            fail("location with mapping %s of %d" % (m.group(1), len(files)))


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "dhat":
        check_dhat(sys.argv[2])
    elif kind == "dom":
        check_dom(sys.argv[2])
    elif kind == "pprof-top":
        check_pprof_top(sys.argv[2], sys.argv[3])
    elif kind == "pprof-raw":
        check_pprof_raw(sys.argv[2], sys.argv[3])
    else:
        fail("unknown check %s" % kind)
