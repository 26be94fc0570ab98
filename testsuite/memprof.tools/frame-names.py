#!/usr/bin/env python3
"""Usage: frame-names.py JSON

Print one line per record of a `memprof-dump --json` document: its
alloc_count, then the functions of its first two frames, each after
" | " (names hold blanks and commas, so the test compares whole lines)."""

import json
import sys

doc = json.load(open(sys.argv[1]))
for r in doc["records"]:
    print(" | ".join([str(r["alloc_count"])]
                     + [f["function"] for f in r["stack"][:2]]))
