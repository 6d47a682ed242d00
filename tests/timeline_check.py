#!/usr/bin/env python3
"""PACXX_TRACE=timeline:FILE (runtime/timeline.hpp): runs a program with it and checks
the file: valid JSON in the trace-event format (what Perfetto and chrome://tracing
open), every range complete (name, category, start, duration, track), every track a
named queue, the ranges of one track nested or apart (never half overlapping), the
launches the program makes (one per fused algorithm: PART=COUNT, PART a part of the
kernels' names, such as the algorithm's header reduce.hpp), a JIT compilation
before the first launch of each kernel (the tests run with PACXX_CACHE=0), copies
with their sizes, and the algorithms (pacxx/tools.hpp's ranges): algorithm:NAME=COUNT
ranges named NAME (e.g. algorithm:gpu::reduce=1) at the top level of their track, each
with its input's size where the range is sized, and at most one launch inside each (the
fusion guarantee: one kernel per fused algorithm). The device times: every launch
has its kernel, by name, on its queue's "(device)" track, where kernels follow one
another (an in-order queue) and lie between the program's start and the file's last
host range; graph:COUNT is the number of graph replays (pacxx::graph::launch ranges,
their "replays" summed), each also on the device track.

usage: timeline_check.py [algorithm:NAME=COUNT | graph:COUNT | PART=COUNT]... -- PROGRAM [ARGS...]
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def check_device(ranges, names, replays):
    """The device tracks: problems found."""
    problems = []
    host = [e for e in ranges if not names[e['tid']].endswith('(device)')]
    device = [e for e in ranges if names[e['tid']].endswith('(device)')]
    for e in host:
        if e['cat'] in ('kernel',):
            problems.append('a kernel range on a host track: %r' % e)
    launched = collections.Counter(e['name'] for e in host if e['cat'] == 'launch')
    ran = collections.Counter(e['name'] for e in device if e['cat'] == 'kernel')
    if launched != ran:
        problems.append('kernels on the device tracks %s differ from the launches %s' % (
            dict(ran), dict(launched)))
    graphs = [e for e in host if e['cat'] == 'graph']
    total = sum(e['args'].get('replays', 0) for e in graphs)
    if total != replays:
        problems.append('%d graph replays in %d ranges, expected %d' % (total, len(graphs), replays))
    device_graphs = [e for e in device if e['cat'] == 'graph']
    if len(device_graphs) != len(graphs):
        problems.append('%d graph ranges on the device tracks, %d on the host tracks' % (
            len(device_graphs), len(graphs)))
    # An in-order queue runs one thing after another (a slack of 1 us for the rounding
    # and the timer's resolution).
    by_track = collections.defaultdict(list)
    for e in device:
        by_track[e['tid']].append((e['ts'], e['ts'] + e['dur'], e['name']))
    for tid, rs in by_track.items():
        rs.sort()
        for (b0, e0, n0), (b1, e1, n1) in zip(rs, rs[1:]):
            if b1 < e0 - 1.0:
                problems.append('track %s: %s at %.3f begins before %s ends at %.3f' % (
                    names[tid], n1, b1, n0, e0))
    if host and device:
        last = max(e['ts'] + e['dur'] for e in host)
        for e in device:
            if e['ts'] < 0 or e['ts'] > last + 1e3:
                problems.append('a device range outside the program: %r' % e)
    return problems


def check(path, expected, algorithms, replays):
    with open(path) as f:
        trace = json.load(f)  # not JSON: the test fails here, with the parser's message
    events = trace['traceEvents']
    names = {e['tid']: e['args']['name'] for e in events
             if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
    ranges = [e for e in events if e.get('ph') == 'X']
    problems = []
    for e in ranges:
        for key in ('name', 'cat', 'ts', 'dur', 'pid', 'tid', 'args'):
            if key not in e:
                problems.append('range without %s: %r' % (key, e))
        if e.get('ts', -1) < 0 or e.get('dur', -1) < 0:
            problems.append('negative time: %r' % e)
        if e.get('tid') not in names:
            problems.append('range on a track without a name: %r' % e)
    # One track: every two ranges nested or apart (a slack of 1 ns for the rounding).
    by_track = collections.defaultdict(list)
    for e in ranges:
        by_track[e['tid']].append((e['ts'], e['ts'] + e['dur'], e['name']))
    for tid, rs in by_track.items():
        rs.sort(key=lambda r: (r[0], -r[1]))
        open_ends = []
        for begin, end, name in rs:
            while open_ends and open_ends[-1][0] <= begin + 1e-3:
                open_ends.pop()
            if open_ends and end > open_ends[-1][0] + 1e-3:
                problems.append('track %s: %s [%.3f, %.3f) half overlaps %s' % (
                    names.get(tid), name, begin, end, open_ends[-1][1]))
            open_ends.append((end, name))
    # Kernels are named as PACXX_TRACE names them: the lambda and its place in the source
    # (for the GPU STL, in pacxx's header of the algorithm), so expectations are parts of
    # names; every launch must match one.
    launches = collections.Counter(e['name'] for e in ranges if e['cat'] == 'launch')
    got = collections.Counter()
    for name, n in launches.items():
        match = [p for p in expected if p in name]
        if len(match) != 1:
            problems.append('launch %s matches %d of the expected names %s' % (
                name, len(match), sorted(expected)))
        else:
            got[match[0]] += n
    if dict(got) != expected:
        problems.append('launches %s, expected %s' % (dict(launches), expected))
    first = {}
    for e in sorted(ranges, key=lambda e: e['ts']):
        if e['cat'] in ('jit', 'disk cache', 'launch'):
            first.setdefault(e['name'], e['cat'])
    for kernel, cat in first.items():
        if cat != 'jit':
            problems.append('the first range of %s is a %s, not its compilation' % (kernel, cat))
    # Algorithms: the outermost ones by name; the launches inside each (one track).
    algos = [e for e in ranges if e['cat'] == 'algorithm']
    def inside(e, a):
        return (e['tid'] == a['tid'] and e is not a and a['ts'] - 1e-3 <= e['ts'] and
                e['ts'] + e['dur'] <= a['ts'] + a['dur'] + 1e-3)
    top = [a for a in algos if not any(inside(a, b) for b in algos)]
    top_names = collections.Counter(a['name'] for a in top)
    if dict(top_names) != algorithms:
        problems.append('algorithms %s, expected %s' % (dict(top_names), algorithms))
    for a in top:
        n = sum(1 for e in ranges if e['cat'] == 'launch' and inside(e, a))
        if n > 1:
            problems.append('%s at %.3f holds %d launches, not at most one' % (a['name'], a['ts'], n))
        if 'size' in a['args'] and not isinstance(a['args']['size'], int):
            problems.append('%s with a size that is not a count: %r' % (a['name'], a['args']))
    copies = [e for e in ranges if e['cat'] == 'copy']
    if not copies or any(e['args'].get('bytes', 0) <= 0 for e in copies):
        problems.append('no copy, or a copy without its size: %r' % copies[:3])
    problems += check_device(ranges, names, replays)
    return problems, len(ranges), len(names)


def main(expectations, program):
    expected, algorithms, replays = {}, {}, 0
    for x in expectations:
        name, _, count = x.rpartition('=')
        if x.startswith('graph:'):
            replays = int(x[len('graph:'):])
        elif name.startswith('algorithm:'):
            algorithms[name[len('algorithm:'):]] = int(count)
        else:
            expected[name] = int(count)
    fd, path = tempfile.mkstemp(suffix='.json')
    os.close(fd)
    try:
        env = dict(os.environ, PACXX_TRACE='timeline:' + path)
        r = subprocess.run(program, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        print(r.stdout, end='')
        if r.returncode != 0:
            print('timeline_check: %s exited with %d' % (' '.join(program), r.returncode))
            return 1
        problems, count, tracks = check(path, expected, algorithms, replays)
    finally:
        os.unlink(path)
    if problems:
        print('\n'.join(problems))
        print('timeline_check: FAILED')
        return 1
    print('timeline_check: %d ranges on %d track(s); launches %s; algorithms %s' % (
        count, tracks, expected, algorithms))
    return 0


if __name__ == '__main__':
    if '--' not in sys.argv[2:-1]:
        sys.exit(__doc__)
    split = sys.argv.index('--')
    sys.exit(main(sys.argv[1:split], sys.argv[split + 1:]))
