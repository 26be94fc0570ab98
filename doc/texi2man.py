#!/usr/bin/env python3
"""Generate a man page from marked sections of a Texinfo manual.

The manual marks what belongs to a man page with comment lines, so the man
pages are always the manual's own text:

  @c man title PAGE ONE-LINE DESCRIPTION
  @c man begin SECTION PAGE
  ...Texinfo...
  @c man end

SECTION becomes the man page's section heading (underscores turn into
blanks: EXIT_STATUS -> EXIT STATUS).  Sections appear in manual order,
and a SECTION seen twice for one page continues the earlier one.  Only
the Texinfo the manual uses is understood: inline markup (@option,
@samp, @code, @var, @file, @env, @command, @emph, @strong, @dots, @ref
and friends), @table/@item/@itemx, @itemize, @enumerate, @example,
@smallexample, @verbatim, @set/@value and paragraphs.  Anything else
stops the conversion with an error naming the line, so the man pages
never silently lose text.

Usage: texi2man.py --page NAME [--section 1] [--version V] [--date D] FILE
"""

import argparse
import re
import sys

IGNORED_LINE = re.compile(
    r"@(c|comment|cindex|findex|kindex|opindex|vindex|pindex|noindent|"
    r"need|page|sp)\b.*$"
)

# Inline commands with a braced argument: how each one is set in roff.
FONT_BOLD = {"option", "samp", "code", "command", "env", "strong", "kbd",
             "key", "t", "command", "indicateurl", "url", "uref", "email"}
FONT_ITALIC = {"var", "emph", "file", "dfn", "cite", "i"}
PLAIN = {"asis", "w", "r", "b", "sc", "acronym", "abbr"}
NO_ARG = {"dots": "...", "minus": "\\-", "result": "=>", "equiv": "==",
          "tie": "\\ ", "copyright": "(C)", "bullet": "\\(bu", "tab": " ",
          "expansion": "==>", "error": "error-->", "print": "-|"}


class ConversionError(Exception):
    pass


def roff_escape(text):
    """Escape TEXT for roff (inline, not at line start)."""
    return text.replace("\\", "\\e")


def convert_inline(text, values, lineno):
    """Convert Texinfo inline markup in TEXT to roff."""
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c != "@":
            out.append(roff_escape(c) if c != "-" else "\\-")
            i += 1
            continue
        if i + 1 < len(text) and text[i + 1] in "@{}.:!?* ":
            ch = text[i + 1]
            out.append({"*": "\n.br\n", " ": " "}.get(ch, "" if ch == ":" else ch))
            i += 2
            continue
        m = re.match(r"@([A-Za-z]+)", text[i:])
        if not m:
            raise ConversionError("line %d: stray @" % lineno)
        name = m.group(1)
        j = i + m.end()
        if j >= len(text) or text[j] != "{":
            raise ConversionError("line %d: @%s without braces" % (lineno, name))
        depth, k = 1, j + 1
        while k < len(text) and depth:
            if text[k] == "@" and k + 1 < len(text):
                k += 2
                continue
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        if depth:
            raise ConversionError("line %d: unbalanced braces after @%s" % (lineno, name))
        arg = text[j + 1:k - 1]
        i = k
        if name in NO_ARG:
            out.append(NO_ARG[name])
        elif name == "value":
            if arg not in values:
                raise ConversionError("line %d: @value{%s} is not set" % (lineno, arg))
            out.append(convert_inline(values[arg], values, lineno))
        elif name in ("xref", "pxref", "ref"):
            node = arg.split(",")[0].strip()
            prefix = {"xref": "See ", "pxref": "see ", "ref": ""}[name]
            out.append(prefix + "\\(lq" + convert_inline(node, values, lineno)
                       + "\\(rq in the gcc-memprof manual")
        elif name in ("uref", "url", "email"):
            out.append("\\fB" + convert_inline(arg.split(",")[0], values, lineno) + "\\fR")
        elif name == "anchor":
            pass
        elif name in FONT_BOLD:
            out.append("\\fB" + convert_inline(arg, values, lineno) + "\\fR")
        elif name in FONT_ITALIC:
            out.append("\\fI" + convert_inline(arg, values, lineno) + "\\fR")
        elif name in PLAIN:
            out.append(convert_inline(arg, values, lineno))
        else:
            raise ConversionError("line %d: unsupported @%s{...}" % (lineno, name))
    return "".join(out)


def open_braces(line):
    """How many braces LINE leaves open (escaped @{ @} do not count)."""
    depth = 0
    i = 0
    while i < len(line):
        if line[i] == "@" and i + 1 < len(line) and line[i + 1] in "{}@":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(line[i], 0)
        i += 1
    return depth


def protect_line(line):
    """A roff text line must not start with a control character."""
    if line.startswith((".", "'")):
        return "\\&" + line
    return line


def convert_block(lines, values):
    """Convert a list of (lineno, text) Texinfo lines to roff lines."""
    out = []
    stack = []          # open environments: table, itemize, enumerate
    pending_tag = None  # item tags of a @table entry not yet emitted
    verbatim = None     # end command of an open example block
    counters = []

    def flush_tag():
        nonlocal pending_tag
        if pending_tag is not None:
            out.append(".TP")
            out.append(protect_line(", ".join(pending_tag)))
            pending_tag = None

    carry = None        # a line whose inline braces close on a later line
    for lineno, line in lines:
        if carry is not None and not verbatim:
            line = carry + " " + line.strip()
            carry = None
        if not verbatim and open_braces(line) > 0 and not line.lstrip().startswith("@c "):
            carry = line
            continue
        if verbatim:
            if line.strip() == "@end " + verbatim:
                out.extend([".fi", ".RE", ".PP"])
                verbatim = None
            else:
                text = line if verbatim == "verbatim" else \
                    convert_inline(line, values, lineno)
                out.append(protect_line(text.replace("-", "\\-") if verbatim == "verbatim" else text))
            continue
        stripped = line.strip()
        if not stripped:
            flush_tag()
            if out and out[-1] not in (".PP", ".TP") and not out[-1].startswith(".IP"):
                out.append(".PP")
            continue
        if IGNORED_LINE.match(stripped):
            continue
        m = re.match(r"@(example|smallexample|verbatim|display|format|lisp)\s*$", stripped)
        if m:
            flush_tag()
            verbatim = m.group(1)
            out.extend([".PP", ".RS 4", ".nf"])
            continue
        m = re.match(r"@(table|ftable|vtable)\s+@(\w+)\s*$", stripped)
        if m:
            flush_tag()
            if stack:
                out.append(".RS")
            stack.append(("table", m.group(2)))
            continue
        m = re.match(r"@(itemize|enumerate)\b", stripped)
        if m:
            flush_tag()
            if stack:
                out.append(".RS")
            stack.append((m.group(1), None))
            counters.append(0)
            continue
        m = re.match(r"@end\s+(\w+)\s*$", stripped)
        if m:
            flush_tag()
            kind = m.group(1)
            if kind in ("table", "ftable", "vtable", "itemize", "enumerate"):
                if not stack:
                    raise ConversionError("line %d: @end %s without a start" % (lineno, kind))
                env = stack.pop()
                if env[0] in ("itemize", "enumerate"):
                    counters.pop()
                if stack:
                    out.append(".RE")
                out.append(".PP")
                continue
            raise ConversionError("line %d: unsupported @end %s" % (lineno, kind))
        m = re.match(r"@(item|itemx)\b\s*(.*)$", stripped)
        if m and stack:
            env, fmt = stack[-1]
            rest = m.group(2)
            if env == "table":
                tag = convert_inline("@%s{%s}" % (fmt, rest) if fmt != "asis" else rest,
                                     values, lineno)
                if m.group(1) == "itemx" and pending_tag is not None:
                    pending_tag.append(tag)
                else:
                    flush_tag()
                    pending_tag = [tag]
                continue
            if env == "itemize":
                out.append(".IP \\(bu 2")
            else:
                counters[-1] += 1
                out.append(".IP %d. 4" % counters[-1])
            if rest:
                out.append(protect_line(convert_inline(rest, values, lineno)))
            continue
        if stripped.startswith("@") and re.match(r"@[A-Za-z]+(\s|$)", stripped):
            raise ConversionError("line %d: unsupported command: %s" % (lineno, stripped))
        flush_tag()
        out.append(protect_line(convert_inline(stripped, values, lineno)))
    flush_tag()
    if carry is not None:
        raise ConversionError("unbalanced braces in: %s" % carry.strip())
    if stack or verbatim:
        raise ConversionError("unclosed @%s at the end of a man section"
                              % (verbatim or stack[-1][0]))
    while out and out[-1] == ".PP":
        out.pop()
    while out and out[0] == ".PP":
        out.pop(0)
    return out


def extract(texi_lines, page):
    """Return (title, [(section, [(lineno, line)])]) for PAGE."""
    title = None
    sections = []
    current = None
    for lineno, line in enumerate(texi_lines, 1):
        m = re.match(r"@c\s+man\s+title\s+(\S+)\s+(.*?)\s*$", line)
        if m and m.group(1) == page:
            title = m.group(2)
            continue
        m = re.match(r"@c\s+man\s+begin\s+(\S+)\s+(\S+)\s*$", line)
        if m:
            if current is not None:
                raise ConversionError("line %d: man begin inside a man section" % lineno)
            if m.group(2) == page:
                name = m.group(1).replace("_", " ")
                for sec in sections:
                    if sec[0] == name:
                        current = sec[1]
                        current.append((lineno, ""))
                        break
                else:
                    current = []
                    sections.append((name, current))
            else:
                current = False
            continue
        if re.match(r"@c\s+man\s+end\b", line):
            current = None
            continue
        if current is not None and current is not False:
            current.append((lineno, line.rstrip("\n")))
    return title, sections


def main():
    parser = argparse.ArgumentParser(description="Texinfo man sections to roff")
    parser.add_argument("--page", required=True)
    parser.add_argument("--section", default="1")
    parser.add_argument("--version", default="")
    parser.add_argument("--date", default="")
    parser.add_argument("--set", action="append", default=[],
                        help="NAME=VALUE for @value{NAME}")
    parser.add_argument("texi")
    args = parser.parse_args()

    try:
        with open(args.texi, encoding="utf-8") as f:
            texi_lines = f.readlines()
    except OSError as e:
        sys.stderr.write("texi2man: %s: %s\n" % (args.texi, e.strerror))
        return 1
    values = {"VERSION": args.version}
    for item in args.set:
        name, _, value = item.partition("=")
        values[name] = value
    for line in texi_lines:
        m = re.match(r"@set\s+(\S+)\s*(.*?)\s*$", line)
        if m and m.group(1) not in values:
            values[m.group(1)] = m.group(2)

    try:
        title, sections = extract(texi_lines, args.page)
        if title is None:
            raise ConversionError("no '@c man title %s' line" % args.page)
        if not sections:
            raise ConversionError("no man sections for %s" % args.page)
        out = ['.\\" Generated by texi2man.py from %s; do not edit.'
               % args.texi.rsplit("/", 1)[-1],
               '.TH %s %s "%s" "gcc-memprof %s" "gcc-memprof"'
               % (args.page.upper(), args.section, args.date, args.version),
               ".SH NAME",
               "%s \\- %s" % (args.page.replace("-", "\\-"),
                              convert_inline(title, values, 0))]
        for name, lines in sections:
            out.append(".SH " + name.upper())
            out.extend(convert_block(lines, values))
    except ConversionError as e:
        sys.stderr.write("texi2man: %s: %s\n" % (args.texi, e))
        return 1
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
