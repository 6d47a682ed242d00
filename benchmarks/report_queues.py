#!/usr/bin/env python3
"""Queues and device futures (issue 12): reads the Google Benchmark JSON of `queues` and
of stl_vs_cuda's saxpy benchmarks, writes queues.md into the results directory (tables:
Listing 7's gpu::async saxpy against Thrust with the goal checked size by size; the
overlap pipeline against the serial version and max(upload, reduce); the chain on the
device against synchronous calls) and two PNGs (saxpy speedup, chain speedup).

usage: report_queues.py OUT_DIR queues.json saxpy_async.json"""
import collections, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import plot  # one plot style for every results page


def load(path):
    """name -> median real time (µs or ms, as the benchmark's unit), from a JSON file."""
    rows = {}
    if not os.path.exists(path):
        return rows, {}
    with open(path) as f:
        j = json.load(f)
    for b in j['benchmarks']:
        if b.get('run_type') == 'aggregate' and b.get('aggregate_name') != 'median':
            continue
        if b.get('error_occurred'):
            continue
        name = b.get('run_name', b['name']).replace('/real_time', '')
        rows[name] = b
    return rows, j.get('context', {})


def main(out_dir, queues_json, saxpy_json):
    q, ctx = load(queues_json)
    s, _ = load(saxpy_json)
    lines = ['# Queues, device futures and interop (issue 12)', '',
             'Device: %s. Date: %s. Median of %s repetitions.' % (
                 os.environ.get('PACXX_BENCH_DEVICE', '?'), ctx.get('date', '?'),
                 os.environ.get('PACXX_BENCH_REPS', '?')), '']

    # Listing 7: gpu::async saxpy against Thrust (goal: >= 0.97x at every size).
    by_n = collections.defaultdict(dict)
    for name, b in s.items():
        parts = name.split('/')
        by_n[int(parts[1])][parts[0]] = b['real_time']
    lines += ['## Listing 7: gpu::async saxpy against Thrust', '',
              '| n | gpu::async (µs) | gpu::transform (µs) | Thrust (µs) | async / Thrust speed | goal >= 0.97 |',
              '| --- | --- | --- | --- | --- | --- |']
    pts = []
    for n in sorted(by_n):
        r = by_n[n]
        a, t, th = r.get('saxpy_pacxx_async'), r.get('saxpy_pacxx_transform'), r.get('saxpy_thrust')
        if a and th:
            x = th / a
            pts.append((n, x))
            lines.append('| 2^%d | %.1f | %s | %.1f | %.2fx | %s |' % (
                n.bit_length() - 1, a, '%.1f' % t if t else '-', th, x, 'met' if x >= 0.97 else 'MISSED'))
    lines.append('')

    # The overlap pipeline.
    lines += ['## Copy/compute overlap: 2^28 floats from pinned memory, uploaded and summed in chunks', '',
              '| chunk | upload only (ms) | reduce only (ms) | max of both | 1 queue (serial) | 2 queues | 3 queues | 4 queues | best / serial |',
              '| --- | --- | --- | --- | --- | --- | --- | --- | --- |']
    for c in (22, 24, 26):
        up = q.get('upload_only/%d' % c, {}).get('real_time')
        red = q.get('reduce_only/%d' % c, {}).get('real_time')
        pipe = [q.get('pipeline/%d/%d' % (c, k), {}).get('real_time') for k in (1, 2, 3, 4)]
        if not up or not red or not pipe[0]:
            continue
        best = min(p for p in pipe if p)
        lines.append('| 2^%d | %.2f | %.2f | %.2f | %s | %.2fx |' % (
            c, up, red, max(up, red), ' | '.join('%.2f' % p if p else '-' for p in pipe), pipe[0] / best))
    lines.append('')

    # The chain kept on the device.
    lines += ['## Ten dependent reductions and transforms', '',
              '| n | on the device (µs) | synchronous calls (µs) | speedup |', '| --- | --- | --- | --- |']
    chain = []
    for name in sorted((k for k in q if k.startswith('chain_device/')), key=lambda k: int(k.split('/')[1])):
        n = int(name.split('/')[1])
        d, sy = q[name]['real_time'], q.get('chain_sync/%d' % n, {}).get('real_time')
        if sy:
            chain.append((n, sy / d))
            lines.append('| 2^%d | %.1f | %.1f | %.2fx |' % (n.bit_length() - 1, d, sy, sy / d))
    lines.append('')

    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        if pts:
            plot(plt, {'gpu::async / Thrust': pts}, 'speed relative to Thrust', 'Listing 7 saxpy',
                 os.path.join(out_dir, 'queues_saxpy_async.png'))
            lines.append('![saxpy](queues_saxpy_async.png)')
        if chain:
            plot(plt, {'on the device / synchronous': chain}, 'speedup', 'chain of 10 reductions',
                 os.path.join(out_dir, 'queues_chain.png'))
            lines.append('![chain](queues_chain.png)')
    except ImportError:
        lines.append('(matplotlib missing: no plots)')
    with open(os.path.join(out_dir, 'queues.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines))


if __name__ == '__main__':
    main(*sys.argv[1:4])
