#!/usr/bin/env python3
"""Write or check the runtime options tables of the manual and READMEs.

The tables come from libmemprof/flags.inc through the runtime's own
help text (MEMPROF_OPTIONS=help=1 on any profiled program), so the
documents say exactly what the parser accepts:

    MEMPROF_OPTIONS=help=1 ./prog 2> help.txt
    doc/options-table.py --help-output help.txt --update \\
        doc/memprof.texi README.md libmemprof/README
    doc/options-table.py --help-output help.txt --check FILES...

Each document holds its table between a begin and an end marker line
(per format below); --update rewrites what is between them, --check
exits 1 naming each document whose table differs.
"""

import argparse
import re
import sys
import textwrap

# Help lines: "  NAME=DEFAULT<TAB>ACCEPTED<TAB>DESCRIPTION".
HELP_LINE = re.compile(r'^  ([a-z_]+)=(.*)\t(.*)\t(.*)$')


def read_options(path):
    options = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = HELP_LINE.match(line.rstrip('\n'))
            if m:
                options.append(m.groups())
    if not options:
        sys.exit('options-table.py: %s: no option lines (help=1 output?)'
                 % path)
    return options


def texi_escape(s):
    return s.replace('@', '@@').replace('{', '@{').replace('}', '@}')


def sentence(s):
    return s[0].upper() + s[1:] + ('' if s.endswith('.') else '.')


def render_texi(options):
    out = ['@table @code']
    for name, default, accepted, desc in options:
        out.append('@item %s' % name)
        out.append('%s  Default: @samp{%s}; accepted: %s.'
                   % (texi_escape(sentence(desc)), texi_escape(default),
                      texi_escape(accepted)))
        out.append('')
    out[-1] = '@end table'
    return out


def render_md(options):
    out = ['| option | default | accepted | meaning |', '|---|---|---|---|']
    for name, default, accepted, desc in options:
        out.append('| `%s` | `%s` | %s | %s |' % (name, default, accepted,
                                                   desc))
    return out


def render_text(options):
    out = []
    for name, default, accepted, desc in options:
        out.append('  %s=%s' % (name, default))
        for text in (sentence(desc), 'Accepted: %s.' % accepted):
            out.extend(textwrap.wrap(text, 72, initial_indent=' ' * 6,
                                     subsequent_indent=' ' * 6,
                                     break_on_hyphens=False))
    return out


FORMATS = [
    # (how to recognise the file, begin marker, end marker, renderer)
    (lambda p: p.endswith('.texi'),
     '@c options-table begin: from libmemprof/flags.inc, by '
     'doc/options-table.py',
     '@c options-table end', render_texi),
    (lambda p: p.endswith('.md'),
     '<!-- options-table begin: from libmemprof/flags.inc, by '
     'doc/options-table.py -->',
     '<!-- options-table end -->', render_md),
    (lambda p: True,
     '  (options table begin: from flags.inc, by doc/options-table.py)',
     '  (options table end)', render_text),
]


def process(path, options, update):
    for matches, begin, end, render in FORMATS:
        if matches(path):
            break
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    try:
        b = lines.index(begin)
        e = lines.index(end, b)
    except ValueError:
        print('options-table.py: %s: no "%s" ... "%s" lines'
              % (path, begin, end), file=sys.stderr)
        return False
    table = render(options)
    if lines[b + 1:e] == table:
        return True
    if not update:
        print('options-table.py: %s: the options table differs from '
              'libmemprof/flags.inc (run doc/options-table.py --update)'
              % path, file=sys.stderr)
        return False
    lines[b + 1:e] = table
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--help-output', required=True,
                    help='the stderr of a run with MEMPROF_OPTIONS=help=1')
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--check', action='store_true')
    mode.add_argument('--update', action='store_true')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    options = read_options(args.help_output)
    ok = all([process(p, options, args.update) for p in args.files])
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
