#!/usr/bin/env python3
"""Usage: no-live-json-check.py NEW.json OLD.json

Exit 0 when OLD (memprof-dump --json of a copy of a profile as written
before the live heap, damage.py raw-no-live) is NEW (the dump of the
profile itself) without the live-heap additions: those fields read as
0, no "peak".  Some live-heap
field of NEW must be non-zero, or the check would prove nothing."""

import json
import sys

LIVE = ("bytes_at_peak", "blocks_at_peak", "max_live_bytes",
        "max_live_blocks", "bytes_at_exit", "blocks_at_exit")

new = json.load(open(sys.argv[1]))
old = json.load(open(sys.argv[2]))
if not any(r[f] for r in new["records"] for f in LIVE):
    sys.exit("no live-heap field is set in the new profile")
if "peak" not in new or "peak" in old:
    sys.exit("peak not as expected")
del new["peak"]
# The copy is rewritten in version 4 if the profile was version 5.
new.pop("version")
old.pop("version")
for r in new["records"]:
    for f in LIVE:
        r[f] = 0
if new != old:
    sys.exit("the copy without the live heap reads differently")
