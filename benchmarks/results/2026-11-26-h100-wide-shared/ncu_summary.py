#!/usr/bin/env python3
# Prints ncu.md: per kernel of the 16-byte merge sort at 2^24 (block sort, cuts, merge),
# the mean over the launches ncu profiled of each metric, from ncu/ncu_VARIANT.csv.
import collections, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ncu_csv  # benchmarks/ncu_csv.py
here = os.path.dirname(os.path.abspath(__file__))
ROLE = {'512': 'block sort', '128': 'cuts', '256': 'merge pass'}
SHORT = {'gpu__time_duration.sum': 'time (us)',
         'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum': 'shared st conflicts',
         'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': 'shared ld conflicts',
         'launch__registers_per_thread': 'registers',
         'smsp__warps_active.avg.pct_of_peak_sustained_active': 'warps active %'}
print('# ncu, sort_points_pacxx at 2^24 (H100, 2026-11-26)\n')
print('Means over the launches profiled (`--launch-count 40`); the variants as in README.md.\n')
cols = list(SHORT.values())
print('| variant | kernel | launches | ' + ' | '.join(cols) + ' |')
print('|---|---|---' + '|---' * len(cols) + '|')
for v in sys.argv[1:] or ['main4', 'wide4', 'wide3']:
    k = collections.OrderedDict()
    for r, metric, x in ncu_csv.rows(os.path.join(here, 'ncu', f'ncu_{v}.csv')):
        if metric not in SHORT:
            continue
        block = r[7].strip('()').split(',')[0]
        k.setdefault(block, collections.defaultdict(list))[SHORT[metric]].append(x)
    for block, m in k.items():
        vals = []
        for c in cols:
            x = sum(m[c]) / len(m[c])
            vals.append(f'{x / 1000:.1f}' if c == 'time (us)' else f'{x:.0f}' if x >= 10 else f'{x:.1f}')
        print(f'| {v} | {ROLE.get(block, block)} | {len(m[cols[0]])} | ' + ' | '.join(vals) + ' |')
