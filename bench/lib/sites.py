"""Allocation sites, as the fidelity comparison sees them.

A site is named by frame 0 of its allocation stack: the function that
called the allocation function, and the source file and line of the call.
Both sides (DHAT's JSON and memprof-dump --json) are reduced to
{site key: [alloc count, bytes]} by this module's rules, so that they are
compared on equal terms:

* the key is (file base name, line) when the frame has a source location,
  else ("", function name), since function names are spelled differently
  by the two symbolizers (parameter lists, clone suffixes) while file:line
  is not;
* leading frames inside libc's allocating helpers (strdup and friends)
  are skipped, so it does not matter whether a profiler intercepts those
  helpers itself or only sees the malloc they call.
"""

import os
import re

# libc functions that allocate on their caller's behalf.
ALLOCATING_HELPERS = {
    "strdup", "__strdup", "strndup", "__strndup", "wcsdup",
    "asprintf", "__asprintf", "vasprintf", "__vasprintf",
    "open_memstream", "getline", "getdelim", "__getdelim",
}

_CLONE_SUFFIX = re.compile(r"(\.(constprop|isra|part|cold|lto_priv|localalias)"
                           r"(\.\d+)?)+$")


def plain_function_name(name):
    """'ns::f(int) const' -> 'ns::f'; 'f.constprop.0' -> 'f'; the
    symbolizers' spellings of "unknown" ('??', '???') -> ''."""
    if not name:
        return ""
    name = name.strip()
    if name.strip("?") == "":
        return ""
    if name.endswith(" const"):
        name = name[:-len(" const")]
    if name.endswith(")"):
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            c = name[i]
            if c == ")":
                depth += 1
            elif c == "(":
                depth -= 1
                if depth == 0:
                    # Keep "(anonymous namespace)" style names whole.
                    if i > 0:
                        name = name[:i]
                    break
    return _CLONE_SUFFIX.sub("", name)


class Frame:
    __slots__ = ("function", "file", "line")

    def __init__(self, function, file, line):
        self.function = plain_function_name(function or "")
        self.file = os.path.basename(file) if file else ""
        self.line = int(line) if line else 0

    def key(self):
        if self.file and self.line:
            return (self.file, self.line)
        return ("", self.function or "??")

    def label(self):
        where = "%s:%d" % (self.file, self.line) if self.file else "no source"
        return "%s (%s)" % (self.function or "??", where)


def site_frame(frames):
    """Frame 0 after skipping libc allocating helpers (keeping at least
    one frame)."""
    i = 0
    while i + 1 < len(frames) and frames[i].function in ALLOCATING_HELPERS:
        i += 1
    return frames[i] if frames else Frame("??", "", 0)


# Sites whose byte counts legitimately depend on which libraries are
# loaded, with the reason; a difference there is listed as explained.
EXPLAINED = [
    (("rtld-malloc.h", "dl-tls.c", "dl-minimal.c"),
     "allocated by the dynamic loader for thread-local storage: the "
     "dynamic thread vector has one slot per TLS-using module, and the "
     "profiled program loads one more such module (libmemprof.so) than "
     "the one under Valgrind"),
]


def explanation(key):
    for files, why in EXPLAINED:
        if key[0] in files:
            return why
    return None


class SiteTable:
    """{key: [count, bytes]} plus a readable label per key."""

    def __init__(self):
        self.counts = {}
        self.labels = {}

    def add(self, frame, count, nbytes):
        k = frame.key()
        entry = self.counts.setdefault(k, [0, 0])
        entry[0] += count
        entry[1] += nbytes
        self.labels.setdefault(k, frame.label())
