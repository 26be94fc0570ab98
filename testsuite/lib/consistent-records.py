#!/usr/bin/env python3
"""Check that every record of a `memprof-dump --json` document agrees with
itself: each per-block mean (lifetime, utilisation) lies within the
record's own minimum and maximum (a calibrated sampled record is rounded
to whole numbers: one unit of slack per block), so does its mean size
(count and bytes are rounded apart: one block of slack), and live bytes
come with live blocks.

Usage: consistent-records.py JSON-FILE
Exit status 0 when every record holds, 1 with one line per bad record.
"""

import json
import sys


def problems(record):
    n = record["alloc_count"]
    if n == 0:
        return []
    out = []
    for total, low, high in (("total_lifetime", "min_lifetime", "max_lifetime"),
                             ("total_percent_utilized", "min_percent_utilized",
                              "max_percent_utilized")):
        t, lo, hi = record[total], record[low], record[high]
        if t + n < lo * n or t > hi * n + n:
            out.append("%s %d over %d blocks outside %d..%d per block"
                       % (total, t, n, lo, hi))
    size, lo, hi = record["total_size"], record["min_size"], record["max_size"]
    if size > hi * (n + 1) or (lo == hi and size < lo * (n - 1)):
        out.append("total_size %d over %d blocks outside %d..%d per block"
                   % (size, n, lo, hi))
    if record["total_percent_utilized"] > 100 * n:
        out.append("utilisation above 100%")
    for b, k in (("bytes_at_peak", "blocks_at_peak"),
                 ("max_live_bytes", "max_live_blocks"),
                 ("bytes_at_exit", "blocks_at_exit")):
        if record[b] and not record[k]:
            out.append("%s %d in 0 blocks" % (b, record[b]))
    return out


def main():
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    bad = []
    for r in doc["records"]:
        for p in problems(r):
            frame = r["stack"][0]["function"] if r["stack"] else "?"
            bad.append("%s: %s" % (frame, p))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
