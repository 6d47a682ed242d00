#!/usr/bin/env python3
"""The API reference (docs/api.md): runs Doxygen over include/pacxx (docs/api/Doxyfile)
into BUILD_DIR/docs/api/html and fails if a header listed in docs/api/documented.txt has
a public entity without documentation (or any other Doxygen warning). Headers not yet in
the list are reported, not failed: add a header to the list once every public entity in
it carries a comment, and it stays that way.

usage: api_reference.py DOXYGEN SOURCE_DIR BUILD_DIR
"""
import collections
import os
import re
import subprocess
import sys


def main(doxygen, source_dir, build_dir):
    out = os.path.join(build_dir, 'docs', 'api')
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(source_dir, 'docs', 'api', 'Doxyfile')) as f:
        config = f.read() + '\nOUTPUT_DIRECTORY = %s\n' % out
    r = subprocess.run([doxygen, '-'], input=config, cwd=source_dir, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        print('api_reference: doxygen failed (%d)' % r.returncode)
        return 1
    with open(os.path.join(source_dir, 'docs', 'api', 'documented.txt')) as f:
        documented = {l.strip() for l in f if l.strip() and not l.startswith('#')}
    include = os.path.join(os.path.abspath(source_dir), 'include') + os.sep
    failures, others = [], collections.Counter()
    for line in r.stderr.splitlines():
        m = re.match(r'(.*?):(\d+): (.*)', line)
        if not m:
            continue
        header = os.path.abspath(m.group(1)).replace(include, '')
        if header in documented:
            failures.append('include/%s:%s: %s' % (header, m.group(2), m.group(3)))
        else:
            others[header] += 1
    print('api_reference: %s/html/index.html' % out)
    if others:
        print('api_reference: %d warnings in %d headers not yet listed in docs/api/documented.txt '
              '(not failed): %s' % (sum(others.values()), len(others),
                                    ', '.join('%s %d' % kv for kv in sorted(others.items()))))
    if failures:
        print('\n'.join(failures))
        print('api_reference: FAILED: %d warnings in documented headers' % len(failures))
        return 1
    print('api_reference: the %d documented headers have no undocumented public entity'
          % len(documented))
    return 0


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
