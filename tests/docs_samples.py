#!/usr/bin/env python3
"""Compiles every C++ sample of README.md and docs/*.md, so that none goes stale, and
checks that every relative link of those pages names a file that exists.

A block fenced as ```cpp is a translation unit (it may include headers and define
main); one fenced as ```cpp fragment is statements, compiled as the body of a function.
Both are compiled after a prelude that includes <pacxx/pacxx.hpp> and the standard
headers samples use, and declares `namespace view = ranges::views;`, so a sample shows
only what it is about. Other fences (sh, cmake, text) are not compiled; write an error
message or a sample that must not compile as ```text.

All samples go into one source, each in a namespace of its own (main renamed), with
#line directives, so an error names the Markdown file and line; one clang++-15
-fsyntax-only run checks them all in a few seconds of CPU (CI has two cores), against
include/ as a program built by pacxx++ sees it (C++14, the public headers' standard).

usage: docs_samples.py CLANGXX SOURCE_DIR
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

PRELUDE = '''#include <pacxx/pacxx.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

namespace view = ranges::views;
'''

FENCE = re.compile(r'^```(\S*)\s*(\S*)\s*$')
LINK = re.compile(r'\]\(([^)#\s]+)(#[^)]*)?\)')


def dead_links(path):
    """The relative links of a Markdown file whose target does not exist (anchors unchecked)."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    out = []
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r'[a-z]+:', target):  # https:, mailto:
            continue
        if not os.path.exists(os.path.join(os.path.dirname(path), target)):
            out.append('%s:%d: a link to %s, which does not exist' % (
                path, text.count('\n', 0, m.start()) + 1, target))
    return out


def samples(path):
    """(kind, first line number, text) for each ```cpp block of a Markdown file."""
    out, block = [], None
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip('\n'))
            if block is None and m and m.group(1):
                block = (m.group(1), m.group(2), number + 1, [])
            elif block is None and m:
                block = ('', '', number + 1, [])  # a plain fence: skipped to its end
            elif block is not None and line.rstrip() == '```':
                lang, kind, first, lines = block
                if lang == 'cpp':
                    if kind not in ('', 'fragment'):
                        sys.exit('%s:%d: unknown sample kind %r (```cpp or ```cpp fragment)'
                                 % (path, first - 1, kind))
                    out.append((kind or 'unit', first, ''.join(lines)))
                block = None
            elif block is not None:
                block[3].append(line)
    return out


def main(clangxx, source_dir):
    docs = [os.path.join(source_dir, 'README.md')] + sorted(
        glob.glob(os.path.join(source_dir, 'docs', '*.md')))
    includes, bodies, count = [], [], 0
    for path in docs:
        rel = os.path.relpath(path, source_dir)
        for kind, first, text in samples(path):
            count += 1
            body = []
            for offset, line in enumerate(text.splitlines()):
                if line.startswith('#include'):
                    includes.append(line)  # hoisted: headers cannot open in a namespace
                    body.append('')
                else:
                    body.append(line)
            text = '\n'.join(body)
            # main, renamed: every sample may have one.
            text = re.sub(r'\bint main\(', 'int main_%d(' % count, text)
            if kind == 'fragment':
                bodies.append('namespace sample_%d {\nvoid fragment() {\n#line %d "%s"\n%s\n}\n}\n'
                              % (count, first, rel, text))
            else:
                bodies.append('namespace sample_%d {\n#line %d "%s"\n%s\n}\n' % (count, first, rel, text))
    if not count:
        sys.exit('docs_samples: no ```cpp sample found under %s' % source_dir)
    source = PRELUDE + '\n'.join(sorted(set(includes))) + '\n\n' + '\n'.join(bodies)
    with tempfile.NamedTemporaryFile('w', suffix='.cpp', delete=False) as f:
        f.write(source)
        name = f.name
    try:
        cmd = [clangxx, '-fsyntax-only', '-std=c++14', '-I', os.path.join(source_dir, 'include'),
               '-ferror-limit=50', name]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    finally:
        os.unlink(name)
    dead = [d for path in docs for d in dead_links(path)]
    if dead:
        print('\n'.join(dead))
    if r.returncode != 0:
        print(r.stdout)
        print('docs_samples: FAILED; %d samples of %d files (errors name the Markdown line)'
              % (count, len(docs)))
        return 1
    if dead:
        print('docs_samples: FAILED: %d dead links' % len(dead))
        return 1
    print('docs_samples: %d samples of %d files compile; their links lead to files' % (count, len(docs)))
    return 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
