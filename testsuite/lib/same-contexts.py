#!/usr/bin/env python3
"""same-contexts.py A.json B.json: whether two `memprof-dump --json`
profiles of one program hold the same contexts, frame for frame (module,
address, function, line, folded and cut marks), with the same allocation counts,
bytes and access counts.  Times and CPUs are not compared.
Exit 0 the same, 1 different (the first difference on stdout), 2 bad
arguments or JSON."""

import json
import sys

FRAME_KEYS = ("module", "address", "function", "file", "line", "inlined",
              "folded", "cut")
COUNT_KEYS = ("alloc_count", "total_size", "min_size", "max_size",
              "total_access_count")


def contexts(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for rec in doc["records"]:
        stack = tuple(tuple(fr.get(k) for k in FRAME_KEYS)
                      for fr in rec["stack"])
        counts = tuple(rec[k] for k in COUNT_KEYS)
        if stack in out:
            counts = tuple(a + b for a, b in zip(out[stack], counts))
        out[stack] = counts
    return out


def show(stack):
    return " < ".join("%s@%s%s" % (fr[2], fr[1], " [folded]" if fr[6] else "")
                      for fr in stack)


def main(argv):
    if len(argv) != 3:
        print("usage: same-contexts.py A.json B.json", file=sys.stderr)
        return 2
    try:
        a, b = contexts(argv[1]), contexts(argv[2])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("same-contexts.py: %s" % e, file=sys.stderr)
        return 2
    if not a:
        print("no contexts in %s" % argv[1])
        return 1
    for stack in sorted(set(a) | set(b), key=show):
        if stack not in b:
            print("only in %s: %s" % (argv[1], show(stack)))
            return 1
        if stack not in a:
            print("only in %s: %s" % (argv[2], show(stack)))
            return 1
        if a[stack] != b[stack]:
            print("counts %s differ (%s against %s): %s"
                  % (COUNT_KEYS, a[stack], b[stack], show(stack)))
            return 1
    print("%d contexts, the same" % len(a))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
