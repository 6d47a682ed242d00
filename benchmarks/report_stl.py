#!/usr/bin/env python3
"""The parallel STL's results (issues 9 and 10, and the families of issues 35 and 38): reads
the Google Benchmark JSON of the programs scan, reductions, compaction, bykey, sort,
thrust_parity, random, ... (any of them), and writes parallel_stl.md into
the results directory: the goals table (checked size by size), one table per family
with pacxx beside CUB and Thrust, and one PNG per family of pacxx's speedup over CUB.

Benchmark names are '<family>_<variant>/<n>/real_time', variant the last '_' part:
pacxx, cub, thrust (or cuda, curand; top_k's are pacxx<K>)."""
import collections, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import plot  # one plot style for every results page

def load_all(paths):
    table = collections.defaultdict(dict)
    meta = None
    for p in paths:
        if not os.path.exists(p):
            continue
        with open(p) as f:
            j = json.load(f)
        meta = meta or j.get('context', {})
        for b in j['benchmarks']:
            if b.get('run_type') == 'aggregate' and b.get('aggregate_name') != 'median':
                continue
            if b.get('error_occurred'):
                continue
            name, n = b['name'].split('/')[0], int(b['name'].split('/')[1])
            family, _, variant = name.rpartition('_')
            table[(family, variant)][n] = b
    return table, meta or {}

MIB = 1 << 20

# (family pattern, baseline, bound, smallest size, what the issue asks)
GOALS = [
    (r'sum', 'cub', 1.0, 0, 'reduce >= CUB DeviceReduce, every size 2^16..2^28'),
    (r'(inclusive|exclusive)_(float|int)', 'cub', 0.95, MIB, 'scan >= 0.95x CUB DeviceScan, 2^20 and above'),
    (r'(inclusive|exclusive)_(float|int)', 'thrust', 1.0, 0, 'scan >= Thrust, every size'),
    (r'transform_scan', 'thrust', 1.5, 0, 'scan with transforms >= 1.5x Thrust transform_inclusive_scan + transform'),
    (r'copy_if.*', 'cub', 0.95, 0, 'copy_if >= 0.95x CUB DeviceSelect::If'),
    (r'reduce_by_key.*', 'cub', 0.9, 0, 'reduce_by_key >= 0.9x CUB DeviceReduce::ReduceByKey'),
    (r'histogram.*', 'cub', 0.9, 0, 'histogram_even >= 0.9x CUB DeviceHistogram::HistogramEven'),
    # Issue 10 (sorting).
    (r'sort_u32', 'cub', 0.9, 0, 'sort u32 keys >= 0.9x CUB DeviceRadixSort::SortKeys'),
    (r'sort_u32', 'thrust', 1.0, 0, 'sort u32 keys >= Thrust sort'),
    (r'sort_pairs_u32', 'cub', 0.9, 0, 'sort_by_key u32+u32 >= 0.9x CUB DeviceRadixSort::SortPairs'),
    (r'sort_items', 'thrust', 1.0, 0, 'comparator sort of a struct >= Thrust sort'),
    (r'sort_cmp_u64', 'thrust', 1.0, 0, 'comparator sort of 64-bit keys >= Thrust sort'),
    (r'sort_points', 'thrust', 1.0, 0, 'comparator sort of a 16-byte struct >= Thrust sort'),
    (r'sort_scores', 'thrust', 1.0, 0, 'comparator sort of an 8-byte struct >= Thrust sort'),
    # Issue 35 (segmented algorithms).
    (r'segsum(100|1000|100000|mixed)', 'cub', 1.0, 0, 'segmented_reduce >= CUB DeviceSegmentedReduce'),
    (r'segsum100', 'cub', 2.0, 0, 'segmented_reduce >= 2x CUB at segments of 100'),
    (r'segsort(100|1000|100000|mixed)', 'cub', 1.0, 0, 'segmented_sort >= CUB DeviceSegmentedSort at every segment size'),
    (r'segscan(100|1000|100000|mixed)', 'cub', 1.0, 0, 'segmented_inclusive_scan >= CUB InclusiveSumByKey over segment ids'),
    # Issue 35 (shapes): time against naive CUDA, bandwidth against the copy (bw:).
    (r'jacobi2d', 'cuda', 1.25, 0, '2D 5-point Jacobi, clamp >= 1.25x the naive CUDA kernel'),
    (r'jacobi2d', 'bw:copy', 0.85, 0, '2D 5-point Jacobi, clamp >= 85% of the copy rate'),
    (r'jacobi3d', 'cuda', 1.25, 0, '3D 7-point Jacobi, clamp >= 1.25x the naive CUDA kernel'),
    (r'jacobi3d', 'bw:copy', 0.70, 0, '3D 7-point Jacobi, clamp >= 70% of the copy rate'),
    (r'box17', 'cuda', 1.0, 0, '17x17 convolution >= the hand-tiled shared-memory kernel'),
    (r'rowsum|colsum|transpose', 'bw:copy', 0.90, 1 << 26, 'reduce_rows / reduce_columns / transpose >= 90% of the copy rate at 8192^2'),
    (r'indices', 'iota', 1.0, 0, 'a 2D index space (2D launch) >= a flat iota with / and %'),
    # Issue 35 (tiled pairwise reductions): benchmarks/nbody.cpp, at 32k bodies and above.
    (r'nbody', 'cuda', 0.9, 1 << 15, 'pairwise_reduce N-body >= 0.9x the CUDA SDK-style tiled kernel at 32k bodies'),
    # Issue 35 item 7 (applications; no bound of their own: the title asks for
    # faster than hand-written CUDA): benchmarks/canny.cpp at 4096^2, benchmarks/fluids.cpp.
    (r'canny', 'cuda', 1.0, 4096, 'Canny edge detection >= the naive CUDA kernels at 4096^2'),
    (r'fluids', 'cuda', 1.0, 0, 'stable fluids step (captured graph) >= the naive CUDA port'),
    # Issue 38 (Thrust parity; benchmarks/thrust_parity.cpp).
    (r'run_length_encode', 'cub', 0.9, 0, 'run_length_encode >= 0.9x CUB DeviceRunLengthEncode::Encode'),
    (r'unique_by_key', 'cub', 0.9, 0, 'unique_by_key >= 0.9x CUB DeviceSelect::UniqueByKey'),
    (r'adjacent_difference', 'cub', 0.95, 0, 'adjacent_difference >= 0.95x CUB SubtractLeftCopy'),
    (r'partition_copy', 'cub', 0.9, 0, 'partition_copy >= 0.9x CUB DevicePartition::If'),
    (r'set_intersection', 'thrust', 1.0, 0, 'set_intersection >= Thrust'),
    (r'set_union', 'thrust', 1.0, 0, 'set_union >= Thrust'),
    (r'set_difference', 'thrust', 1.0, 0, 'set_difference >= Thrust'),
    (r'set_symmetric_difference', 'thrust', 1.0, 0, 'set_symmetric_difference >= Thrust'),
    # Issue 38 (random numbers; benchmarks/random.cpp): bytes are the 4n output bytes.
    (r'random_uniform', 'curand', 0.95, 0, 'random_uniform fused into a reduce >= 0.95x cuRAND Philox generating into memory'),
    (r'random_engine', 'thrust', 10.0, 0, 'default_random_engine with discard >= 10x Thrust\'s engine + discard per element'),
]

# Goals against another family at one size: (family, variant, baseline family, baseline
# variant, bound, size, what the issue asks); the ratio is the baseline's time over the
# variant's. Issue 38: top_k and nth_element (benchmarks/thrust_parity.cpp) against
# sorting the whole array with gpu::sort, at 2^26 floats. Its "and >= CUB's top-k where
# the toolkit has it" has no row: CUDA 13's CUB has no DeviceTopK.
AGAINST = [
    ('top_k', 'pacxx<%d>' % k, 'sort_whole', 'pacxx', 2.0, 1 << 26,
     'top_k (k = %d) of 2^26 floats >= 2x gpu::sort of the whole array' % k) for k in (1, 100, 10000)
] + [
    ('nth_element', 'pacxx', 'sort_whole', 'pacxx', 2.0, 1 << 26,
     'nth_element of 2^26 floats >= 2x gpu::sort of the whole array'),
]

def against_pts(t, family):
    """{label: [(n, baseline time / variant time)]} of family's AGAINST goals, every size
    both were measured at (for the plots)."""
    out = {}
    for fam, var, bfam, bvar, _, _, _ in AGAINST:
        if fam != family:
            continue
        a, b = t.get((fam, var), {}), t.get((bfam, bvar), {})
        pts = [(n, b[n]['real_time'] / a[n]['real_time']) for n in sorted(a) if n in b]
        if pts:
            out['%s over %s_%s' % (var, bfam, bvar)] = pts
    return out

def ratio_pts(t, family, base, min_n):
    if base.startswith('bw:'):  # bandwidth (bytes per second) against the baseline's
        a, b = t.get((family, 'pacxx'), {}), t.get((family, base[3:]), {})
        return [(n, a[n].get('bytes_per_second', 0) / b[n]['bytes_per_second'])
                for n in sorted(a) if n in b and n >= min_n and b[n].get('bytes_per_second')]
    a, b = t.get((family, 'pacxx'), {}), t.get((family, base), {})
    return [(n, b[n]['real_time'] / a[n]['real_time']) for n in sorted(a) if n in b and n >= min_n]

def goals(t):
    out = ['## Goals (issues 9 and 10)', '', '| goal | family | met | worst pacxx / baseline (size) |', '|---|---|---|---|']
    families = sorted({f for (f, _) in t})
    for pattern, base, bound, min_n, label in GOALS:
        for fam in families:
            if not re.fullmatch(pattern, fam):
                continue
            pts = ratio_pts(t, fam, base, min_n)
            if not pts:
                continue
            worst = min(pts, key=lambda p: p[1])
            out.append('| %s | %s | %s | %.2f (2^%d) |' % (label, fam, 'yes' if worst[1] >= bound else 'NO',
                                                          worst[1], worst[0].bit_length() - 1))
    # Against another family at one size; no row where either was not measured at it.
    for fam, var, bfam, bvar, bound, size, label in AGAINST:
        a, b = t.get((fam, var), {}).get(size), t.get((bfam, bvar), {}).get(size)
        if a and b:
            r = b['real_time'] / a['real_time']
            out.append('| %s | %s | %s | %.2f (2^%d) |' % (label, fam, 'yes' if r >= bound else 'NO', r,
                                                          size.bit_length() - 1))
    # Bandwidth goals against the sum reduction (reductions program).
    sum_runs = t.get(('sum', 'pacxx'), {})
    for fam in ['count_if', 'min_element', 'any_of']:
        runs = t.get((fam, 'pacxx'), {})
        pts = [(n, runs[n].get('bytes_per_second', 0) / sum_runs[n]['bytes_per_second'])
               for n in sorted(runs) if n in sum_runs and n >= MIB and sum_runs[n].get('bytes_per_second')]
        if pts:
            worst = min(pts, key=lambda p: p[1])
            out.append('| %s at >= 95%% of the sum reduction\'s bandwidth, 2^20 and above | %s | %s | %.2f (2^%d) |' % (
                fam, fam, 'yes' if worst[1] >= 0.95 else 'NO', worst[1], worst[0].bit_length() - 1))
    # What skipping radix passes gains (sort16: keys below 2^16, bits [0, 16) against all 32).
    part, full = t.get(('sort16', 'pacxx'), {}), t.get(('sort16', 'pacxxall'), {})
    gains = [(n, full[n]['real_time'] / part[n]['real_time']) for n in sorted(part) if n in full]
    if gains:
        out += ['', 'Skipping radix passes (keys below 2^16 sorted by bits [0, 16), 2 passes, against '
                'all 32 bits, 4 passes): ' + ', '.join('2^%d %.2fx' % (n.bit_length() - 1, g) for n, g in gains) + '.']
    return out + ['']

def main(out_dir, paths):
    t, ctx = load_all(paths)
    lines = ['# The parallel STL (issues 9 and 10) beside CUB and Thrust', '',
             'Device: %s. Date: %s. Median of %s repetitions; time per call end to end (until the '
             'result is on the host or the output is written).' % (
                 os.environ.get('PACXX_BENCH_DEVICE', '?'), ctx.get('date', '?'),
                 os.environ.get('PACXX_BENCH_REPS', '?')), '']
    lines += goals(t)
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    for fam in sorted({f for (f, _) in t}):
        variants = sorted(v for (f, v) in t if f == fam)
        sizes = sorted({n for v in variants for n in t[(fam, v)]})
        # cuRAND (random_uniform) is the one other library a family is measured against.
        bases = ['cub', 'thrust'] + [v for v in ['curand'] if v in variants]
        lines += ['## %s' % fam, '', '| n | ' + ' | '.join('%s µs' % v for v in variants) +
                  ' | pacxx speedup over %s |' % ' | over '.join(bases), '|' + '---|' * (len(variants) + 1 + len(bases))]
        pts = collections.defaultdict(list)
        pts.update(against_pts(t, fam))
        for n in sizes:
            row = ['2^%d' % (n.bit_length() - 1)]
            for v in variants:
                b = t[(fam, v)].get(n)
                row.append('%.1f' % b['real_time'] if b else '-')
            p = t.get((fam, 'pacxx'), {}).get(n)
            for base in bases:
                b = t.get((fam, base), {}).get(n)
                if p and b:
                    s = b['real_time'] / p['real_time']
                    row.append('%.2fx' % s)
                    pts['over ' + base].append((n, s))
                else:
                    row.append('-')
            lines.append('| ' + ' | '.join(row) + ' |')
        lines.append('')
        if plt and pts:
            plot(plt, pts, 'pacxx speedup', fam, os.path.join(out_dir, 'stl_%s.png' % fam))
    with open(os.path.join(out_dir, 'parallel_stl.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
