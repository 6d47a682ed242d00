#!/usr/bin/env python3
"""The second build configuration, in CI's one run: every C++ source the host compiler
builds (compiler/, runtime/, tools/, tests/) compiled again by clang++-15 with
-fsyntax-only, -Wall -Wextra -Werror and assertions on (-UNDEBUG).

What it catches that the main build (g++, Release, NDEBUG) does not:
- clang's own warnings, which g++ lacks or words differently (-Wunused-private-field,
  -Wunused-lambda-capture, -Wrange-loop-analysis, -Wmismatched-tags, -Wself-assign,
  -Wsometimes-uninitialized, ...), and code that only g++ accepts;
- code that compiles only with NDEBUG (a variable used only in an assert that no longer
  exists, an assert naming something gone), as a Debug build would.
No object is written, so it costs a fraction of a build (about a minute on 2 cores).

usage: clang_syntax_check.py CLANGXX BUILD_DIR SOURCE_DIR JOBS
The commands come from BUILD_DIR/compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS);
a source built by several targets (libpacxx and its sanitized twin) is checked once.
"""
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# Options of the g++ command that mean nothing without an output or are replaced below.
DROP = {'-c', '-MD', '-MMD', '-Werror'}
DROP_WITH_VALUE = {'-o', '-MF', '-MT', '-MQ'}
CHECK = ['-fsyntax-only', '-Wall', '-Wextra', '-Werror', '-UNDEBUG']


def clang_command(clang, command):
    args = shlex.split(command)
    out = [clang]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
        elif a in DROP_WITH_VALUE:
            skip = True
        elif a not in DROP:
            out.append(a)
    return out + CHECK


def main():
    clang, build, source, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(os.path.join(build, 'compile_commands.json')) as f:
        database = json.load(f)
    roots = [os.path.join(os.path.realpath(source), d) + os.sep
             for d in ('compiler', 'runtime', 'tools', 'tests')]
    seen, work = set(), []
    for entry in database:
        path = os.path.realpath(os.path.join(entry['directory'], entry['file']))
        if not path.endswith('.cpp') or path in seen or not any(path.startswith(r) for r in roots):
            continue
        seen.add(path)
        work.append((path, entry['directory'], clang_command(clang, entry['command'])))
    if not work:
        print('clang_syntax_check: no sources in compile_commands.json')
        return 1

    def check(item):
        path, directory, cmd = item
        r = subprocess.run(cmd, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        return path, r.returncode, r.stdout

    failed = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for path, rc, output in pool.map(check, work):
            if rc != 0:
                failed += 1
                print('FAILED: %s\n%s' % (os.path.relpath(path, source), output))
    print('clang_syntax_check: %d sources, %d failed' % (len(work), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
