#!/usr/bin/env python3
"""Doxygen's INPUT_FILTER for include/pacxx: the headers document their API in plain //
comments (the project's style), which Doxygen does not read. This filter shows Doxygen
each header with those comments as documentation, without changing the headers:

- the comment block that opens a header becomes the file's documentation (@file);
- a comment block on lines of its own becomes the documentation of what follows it;
- a comment after code on the same line documents that member (///<);
- the lines inside `namespace ranges { ... }` become empty: they specialise range-v3's
  templates for gpu::vector (ref_view, enable_borrowed_range), which is not pacxx API
  (EXCLUDE_SYMBOLS leaves ranges:: out anyway), and Doxygen, which does not read
  range-v3, reports a variable template's specialisation as a symbol never declared.

Lines are neither added nor removed, so Doxygen's warnings give the header's own lines."""
import re
import sys

FULL = re.compile(r'^(\s*)//(?![/!])\s?(.*)$')
TRAILING = re.compile(r'^(.*?[;{,)])(\s*)//(?![/!])\s?(.*)$')


def main(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out, top = [], None  # top: the index of the opening block's last line
    in_ranges = False
    for line in lines:
        if line.startswith('namespace ranges {'):
            in_ranges = True
        if in_ranges:
            in_ranges = not line.startswith('} // namespace ranges')
            out.append('')
            continue
        m = FULL.match(line)
        if m:
            out.append('%s/// %s' % (m.group(1), m.group(2)))
            if top is None or top == len(out) - 2:
                top = len(out) - 1
            continue
        if line.strip() and top is None:
            top = -1  # the header opens with code: no file comment
        t = TRAILING.match(line)
        # Not inside a string literal: a // after an odd number of quotes is left alone.
        if t and t.group(1).count('"') % 2 == 0:
            out.append('%s%s///< %s' % (t.group(1), t.group(2), t.group(3)))
        else:
            out.append(line)
    if top is not None and top >= 0:
        out[top] += ' @file'  # @file at the end of a line: this file, no name after it
    sys.stdout.write('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
