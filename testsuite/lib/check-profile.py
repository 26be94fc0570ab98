#!/usr/bin/env python3
"""Check one record of a `memprof-dump --json` document.

Usage: check-profile.py [--none | --sum] JSON-FILE SELECTOR [CHECKS]

SELECTOR picks records by their allocation stack:
  fn=NAME       frame 0's function is NAME
  fn=A<B<C      frames 0, 1, 2 are A, B, C
  line=N        frame 0's line is N
  file=NAME     frame 0's file ends in NAME
Several terms may be joined with commas (fn=f,line=12): all must hold.

CHECKS is one string of FIELD OP NUMBER comparisons separated by blanks,
e.g. "alloc_count==10 total_size >= 640".  OP is one of == != < <= > >=.
FIELD is any numeric record field, num_frames (the stack's length) or
type_size (the allocated type's size); in histogram profiles also
histogram.N (slot N's accesses: bytes [8N, 8N + 8) of the context's
blocks) and histogram_slots (the histogram's length).  A check
type=NAME holds when the record's allocated type is NAME (blanks in the
type's name not compared: type=std::vector<int,std::allocator<int>>);
type=null when its type is unknown.  FIELD may also be a path into the
record: ".KEY" takes an object's member or a list's element (type.size,
histogram.3), "(NAME)" the one object of a list whose "name" is NAME
(fields(hot).accesses, fields(items[].key).cold; true and false compare
as 1 and 0).

Without --none, exactly one record must match the selector and pass every
check.  With --none, no record may match.  With --sum, one or more records
may match and the checks apply to the sums of their numeric fields (the
per-site totals of a sampled profile: every context under one frame 0).  Exit status: 0 when the check
holds, 1 when it does not (with one message saying why on stdout), 2 when
the arguments or the JSON document are unusable.
"""

import json
import operator
import re
import sys

OPERATORS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
}

CHECK_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\([^)]*\)|\.[A-Za-z0-9_]+)*)"
                      r"\s*(==|!=|<=|>=|<|>)\s*(-?[0-9]+)\s*")
PATH_RE = re.compile(r"\(([^)]*)\)|\.([A-Za-z0-9_]+)")
TYPE_RE = re.compile(r"\s*type=(\S+)\s*")


def usage_error(message):
    print("check-profile: " + message)
    sys.exit(2)


def parse_selector(text):
    """Return a predicate over records, or exit with a usage error."""
    terms = []
    for term in text.split(","):
        key, sep, value = term.partition("=")
        if not sep or not value:
            usage_error("bad selector term '%s' (want fn=, line= or file=)" % term)
        if key == "fn":
            terms.append(("fn", value.split("<")))
        elif key == "line":
            if not value.isdigit():
                usage_error("bad line number in selector '%s'" % term)
            terms.append(("line", int(value)))
        elif key == "file":
            terms.append(("file", value))
        else:
            usage_error("unknown selector key '%s' (want fn, line or file)" % key)

    def matches(record):
        stack = record.get("stack") or []
        for key, value in terms:
            if key == "fn":
                if len(stack) < len(value):
                    return False
                for frame, name in zip(stack, value):
                    if frame.get("function") != name:
                        return False
            elif key == "line":
                if not stack or stack[0].get("line") != value:
                    return False
            elif key == "file":
                if not stack or not str(stack[0].get("file") or "").endswith(value):
                    return False
        return True

    return matches


def parse_checks(text):
    checks = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = TYPE_RE.match(text, pos)
        if m:
            checks.append(("type", "=", m.group(1)))
            pos = m.end()
            continue
        m = CHECK_RE.match(text, pos)
        if not m:
            usage_error("bad check '%s' (want FIELD OP NUMBER)" % text[pos:].strip())
        checks.append((m.group(1), m.group(2), int(m.group(3))))
        pos = m.end()
    return checks


def describe(record):
    """One line naming a record by its first frames, for messages."""
    frames = []
    for frame in (record.get("stack") or [])[:4]:
        name = frame.get("function") or frame.get("address") or "?"
        where = ""
        if frame.get("file"):
            where = " (%s:%s)" % (str(frame["file"]).rsplit("/", 1)[-1], frame.get("line", "?"))
        frames.append(str(name) + where)
    return " < ".join(frames) if frames else "<empty stack>"


def field_value(record, field):
    if field == "num_frames":
        return len(record.get("stack") or [])
    if field == "type_size":
        allocated = record.get("type")
        return allocated.get("size") if isinstance(allocated, dict) else None
    histogram = record.get("histogram")
    if field == "histogram_slots":
        return len(histogram) if isinstance(histogram, list) else None
    head = re.match(r"[A-Za-z_][A-Za-z0-9_]*", field).group(0)
    value = record.get(head)
    path = field[len(head):]
    if not path:
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        return value
    for m in PATH_RE.finditer(path):
        name, key = m.group(1), m.group(2)
        if name is not None:
            found = [v for v in value if isinstance(v, dict)
                     and v.get("name") == name] if isinstance(value, list) else []
            value = found[0] if len(found) == 1 else None
        elif isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            value = None
        if value is None:
            return None
    if isinstance(value, bool):
        return int(value)
    return value if isinstance(value, int) else None


def main(argv):
    expect_none = summed = False
    if argv and argv[0] == "--none":
        expect_none = True
        argv = argv[1:]
    elif argv and argv[0] == "--sum":
        summed = True
        argv = argv[1:]
    if len(argv) not in (2, 3):
        usage_error("usage: check-profile.py [--none | --sum] JSON-FILE SELECTOR [CHECKS]")
    path, selector_text = argv[0], argv[1]
    checks = parse_checks(argv[2] if len(argv) == 3 else "")
    matches = parse_selector(selector_text)

    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        usage_error("%s: cannot read JSON: %s" % (path, e))
    records = document.get("records") if isinstance(document, dict) else None
    if not isinstance(records, list):
        usage_error("%s: no \"records\" list in the JSON document" % path)

    selected = [r for r in records if isinstance(r, dict) and matches(r)]
    if expect_none:
        if selected:
            print("%d record(s) match %s, expected none; first: %s"
                  % (len(selected), selector_text, describe(selected[0])))
            return 1
        return 0
    if summed and selected:
        sums = {}
        for r in selected:
            for key, value in r.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    sums[key] = sums.get(key, 0) + value
        selected = [dict(sums, stack=selected[0].get("stack"))]
    if len(selected) != 1:
        print("%d records match %s, expected exactly 1 (of %d records: %s)"
              % (len(selected), selector_text, len(records),
                 "; ".join(describe(r) for r in (selected or records)[:6])))
        return 1
    record = selected[0]
    failed = []
    for field, op, number in checks:
        if field == "type" and op == "=":
            allocated = record.get("type")
            name = allocated.get("name") if isinstance(allocated, dict) else "null"
            # Blanks are not compared: a check is one word.
            if name.replace(" ", "") != number:
                failed.append("type is %s, expected %s" % (name, number))
            continue
        value = field_value(record, field)
        if value is None:
            failed.append("%s: no such numeric field" % field)
        elif not OPERATORS[op](value, number):
            failed.append("%s is %d, expected %s %d" % (field, value, op, number))
    if failed:
        print("record %s: %s" % (describe(record), "; ".join(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
