#!/usr/bin/env python3
"""Compare the stacks of a `memprof-dump --json` document with eu-addr2line.

Usage: addr2line-compare.py EU-ADDR2LINE JSON MODULE[=REFERENCE]...

For every run of frames sharing one (module, address) whose module is one
of the MODULEs, run `EU-ADDR2LINE -f -i -e REFERENCE ADDRESS` (REFERENCE
defaults to MODULE) and require the same functions, files, lines and
columns, inline frames included, in the same order (absolute paths
compared with their "." and "dir/.." taken out, as memprof-dump gives
them).  Prints one line per
difference; exit status 0 when at least one address was compared and all
agreed, 1 otherwise.
"""

import json
import os.path
import re
import subprocess
import sys


def addr2line(tool, binary, address):
    out = subprocess.run([tool, "-f", "-i", "-e", binary, address],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    frames = []
    for i in range(0, len(lines) - 1, 2):
        function = lines[i].split(" inlined at ")[0].strip()
        if function == "??":
            function = ""
        if lines[i + 1].startswith("??"):
            frames.append((function, "", 0, 0))
            continue
        m = re.match(r"^(.*?):(\d+)(?::(\d+))?$", lines[i + 1])
        if not m:
            frames.append((function, "", 0, 0))
            continue
        path = m.group(1)
        if path.startswith("/"):
            path = os.path.normpath(path)
        frames.append((function, path, int(m.group(2)),
                       int(m.group(3) or 0)))
    return frames


def main():
    tool, json_path = sys.argv[1], sys.argv[2]
    modules = {}
    for arg in sys.argv[3:]:
        module, _, reference = arg.partition("=")
        modules[module] = reference or module
    with open(json_path) as f:
        doc = json.load(f)
    compared = 0
    bad = 0
    seen = set()
    for record in doc["records"]:
        stack = record["stack"]
        i = 0
        while i < len(stack):
            j = i
            key = (stack[i]["module"], stack[i]["address"])
            while j < len(stack) and (stack[j]["module"],
                                      stack[j]["address"]) == key:
                j += 1
            group = stack[i:j]
            i = j
            if key[0] not in modules or key in seen:
                continue
            seen.add(key)
            want = addr2line(tool, modules[key[0]], key[1])
            have = [(fr["function"], fr["file"], fr["line"], fr["column"])
                    for fr in group]
            compared += 1
            if have != want:
                bad += 1
                print("%s %s: memprof-dump %s, eu-addr2line %s"
                      % (key[0], key[1], have, want))
            for k, fr in enumerate(group):
                if fr["inlined"] != (k < len(group) - 1):
                    bad += 1
                    print("%s %s: frame %d inlined flag is %s"
                          % (key[0], key[1], k, fr["inlined"]))
    if compared == 0:
        print("no frame of %s in the profile" % ", ".join(modules))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
