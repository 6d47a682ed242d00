#!/usr/bin/env python3
# Prints ncu.md: kernel times of the reductions and searches under ncu (one kernel per
# call; median over the launches profiled), from ncu/callC_BENCH_N.csv.
import glob, os, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ncu_csv  # benchmarks/ncu_csv.py
here = os.path.dirname(os.path.abspath(__file__))
COLS = [('gpu__time_duration.sum', 'time median (us)'), ('launch__registers_per_thread', 'registers'),
        ('launch__grid_size', 'blocks'), ('smsp__inst_executed.sum', 'instructions')]
print('# ncu, reductions and any_of (H100, 2026-11-26)\n')
print('`ncu --cache-control none --clock-control none --kernel-name regex:pacxx_kernel '
      '--launch-skip 5 --launch-count 20`, one process per row. call2: the second machine of '
      'ab.md (shapes, count32, poll_first, any_warp), call3: the third (value-first warp '
      'fold, `_plain` without), call5: the fourth (`head_*` fe25e0c, `idx32_*` 32-bit indices '
      'at every size), call10: the sixth (search shapes, ab.md §8). Names as in ab.md.\n')
print('| call | benchmark | n | ' + ' | '.join(c for _, c in COLS) + ' |')
print('|---|---|---|' + '---|' * len(COLS))
rows = []
for f in glob.glob(os.path.join(here, 'ncu', '*.csv')):
    base = os.path.basename(f)[:-4]
    call, rest = base.split('_', 1)
    name, n = rest.rsplit('_', 1)
    m = ncu_csv.metrics(f)
    if not m.get(COLS[0][0]):
        continue
    vals = []
    for k, _ in COLS:
        v = statistics.median(m[k])
        vals.append('%.2f' % (v / 1000) if k == COLS[0][0] else '%d' % v)
    rows.append((call, name, int(n), vals))
for call, name, n, vals in sorted(rows):
    print('| %s | %s | 2^%d | %s |' % (call, name, n.bit_length() - 1, ' | '.join(vals)))
