"""Reading DHAT's output (dhat.out.PID, "dhatFileVersion" 2 JSON) into
per-site allocation counts and bytes."""

import json
import re

from sites import Frame, SiteTable, site_frame

# "0x10913C: load_routes (server_sim.c:54)" or
# "0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)"
# The function may itself hold parentheses, so the location is the last
# parenthesised group.
_FRAME = re.compile(r"^0x[0-9A-Fa-f]+: (.*) \(([^()]*)\)$")
_FILE_LINE = re.compile(r"^(.*):(\d+)$")


def _parse_frame(text):
    m = _FRAME.match(text)
    if not m:
        # "0x4012AB: ???" and the like.
        fn = text.split(": ", 1)[1] if ": " in text else text
        return Frame(fn if fn != "???" else "", "", 0), ""
    fn, where = m.group(1), m.group(2)
    if where.startswith("in "):
        return Frame(fn, "", 0), where[3:]
    fl = _FILE_LINE.match(where)
    if fl:
        return Frame(fn, fl.group(1), fl.group(2)), ""
    return Frame(fn, "", 0), ""


def read_dhat(path):
    """Return (SiteTable, totals dict) for the DHAT file PATH."""
    with open(path) as f:
        data = json.load(f)
    if data.get("dhatFileVersion") != 2 or data.get("mode") != "heap":
        raise ValueError("%s: not a DHAT heap profile of version 2" % path)
    ftbl = data["ftbl"]
    parsed = [_parse_frame(t) for t in ftbl]
    table = SiteTable()
    total_blocks = total_bytes = 0
    for pp in data["pps"]:
        frames = []
        for idx in pp["fs"]:
            frame, obj = parsed[idx]
            # DHAT's own replacements of malloc, new, ... are the
            # allocation function, not the site.
            if "vgpreload_dhat" in obj:
                continue
            frames.append(frame)
        table.add(site_frame(frames), pp["tbk"], pp["tb"])
        total_blocks += pp["tbk"]
        total_bytes += pp["tb"]
    return table, {"blocks": total_blocks, "bytes": total_bytes}
