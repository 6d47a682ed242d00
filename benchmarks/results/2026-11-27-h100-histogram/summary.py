#!/usr/bin/env python3
# Prints evidence.md from the logs of this folder (run from anywhere):
#   ncu/call*/m_<tag>_<data>_<who>_<n>.csv: `ncu --metrics` logs of 20 launches each
#     (device.sh); the table gives the median kernel time of the histogram pass (the
#     zeroing kernels, grid 1, are left out);
#   ncu/pages/: the details and SASS pages of `--set full` (skewed 2^21, pacxx and CUB):
#     stall samples by reason and the hottest instructions;
#   ab/call*/: the benchmark processes, compared by benchmarks/tools/compare_runs.py.
import glob
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..', 'tools'))
import ncu_csv  # noqa: E402


def log2(n):
    return '2^%d' % (int(n).bit_length() - 1)


def kernel_times(path):
    """{(grid, block, registers): [µs, ...]} of the launches in path."""
    launches = defaultdict(dict)
    for r, name, value in ncu_csv.rows(path):
        launches[r[0]][name] = value
    by = defaultdict(list)
    for m in launches.values():
        if m.get('launch__grid_size') == 1:
            continue
        key = (int(m['launch__grid_size']), int(m['launch__block_size']),
               int(m['launch__registers_per_thread']))
        by[key].append(m['gpu__time_duration.sum'] / 1000)
    return by


def ncu_table():
    print('## Kernel times under ncu')
    print()
    print('`ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum,...`,')
    print('launches 11-30 of a benchmark process, median (min-max). The kernel that zeroes the')
    print('result (grid 1) is left out; with 4096 bins its grid is 16 and it shows (16 registers).')
    print()
    print('| call | variant | data | who | n | grid x block | registers | µs | launches |')
    print('|---|---|---|---|---|---|---|---|---|')
    pat = re.compile(r'm_(?:ncu_)?(\w+?)_(skewed|uniform)_(pacxx|cub)_(\d+)\.csv$')
    # call5's variants are named with their bins (main16, new4096); the others have 256.
    for call in sorted(glob.glob(os.path.join(here, 'ncu', 'call*'))):
        rows = []
        for f in glob.glob(os.path.join(call, 'm_*.csv')):
            m = pat.search(os.path.basename(f))
            if not m:
                continue
            tag, data, who, n = m.groups()
            for (g, b, regs), t in kernel_times(f).items():
                rows.append((int(n), tag, data, who, g, b, regs, t))
        for n, tag, data, who, g, b, regs, t in sorted(rows, key=lambda r: (r[0], r[2], r[3], r[1])):
            print('| %s | %s | %s | %s | %s | %d x %d | %d | %.2f (%.2f-%.2f) | %d |' % (
                os.path.basename(call), tag, data, who, log2(n), g, b, regs,
                statistics.median(t), min(t), max(t), len(t)))
    print()


def stalls(path):
    """Per kernel of a SASS page with samples: (samples, counts by reason, hottest)."""
    out = []
    for rows, ix in ncu_csv.source_kernels(path):
        c = ncu_csv.stall_counts(rows, ix)
        total = sum(c.values())
        if total == 0:
            continue
        key = [h for h in ix if h.startswith('Warp Stall Sampling (All')][0]
        hot = sorted(rows, key=lambda r: -int(r[ix[key]] or 0))[:4]
        out.append((total, c, [(int(r[ix[key]]), r[ix['Source']].strip()) for r in hot]))
    return out


def full_profiles():
    print('## `--set full`, skewed 2^21 (call 1)')
    print()
    keys = ['Duration', 'Registers Per Thread', 'Executed Instructions',
            'Achieved Active Warps Per SM', 'Issue Slots Busy']
    print('| who | grid | ' + ' | '.join(keys) + ' | stall samples | largest reasons |')
    print('|---|---|' + '---|' * (len(keys) + 2))
    hots = []
    for who in ('pacxx', 'cub'):
        d = os.path.join(here, 'ncu', 'pages', 'full_main_%s' % who)
        sweep = [(g, m) for g, m in ncu_csv.detail_launches(d + '_details.csv')
                 if g != '(1, 1, 1)'][0]
        total, c, hot = stalls(d + '_sass.csv.gz')[-1]
        share = ', '.join('%s %.1f %%' % (k, 100 * v / total) for k, v in c.most_common(4))
        print('| %s | %s | %s | %d | %s |' % (who, sweep[0], ' | '.join(sweep[1][k][0] for k in keys),
                                           total, share))
        hots.append((who, total, hot))
    print()
    for who, total, hot in hots:
        print('%s, the hottest SASS instructions: %s' % (who, '; '.join(
            '`%s` %.0f %%' % (s, 100 * n / total) for n, s in hot)))
        print()


def ab():
    cmp = os.path.join(here, '..', '..', 'tools', 'compare_runs.py')
    calls = {
        'call1': 'main (the code of 0317b7f), three processes, 10 repetitions each',
        'call2': 'policy variants at 2^20-2^22, 10 repetitions: 384 x 16 at 528 blocks (b384), '
                 '256 x 16 at 264 (m264), 384 x 16 at 396 (b384m396), three rounds (the '
                 "round's main processes were lost: the device tool returns eight files)",
        'call3': 'main, b384 and m264 at every size, 3 repetitions, two rounds',
        'call4': 'main against 67002ed (new), 3 repetitions, one process each',
        'call5': 'main against 67002ed (new) with 16 and with 4096 bins (benchmarks/bykey.cpp '
                 'built with kBins edited; CUB with the same bins), 2^19-2^25, 5 repetitions, '
                 'two rounds',
    }
    for call, what in calls.items():
        order = ['main', 'b384', 'm264', 'b384m396', 'new', 'main16', 'new16', 'main4096', 'new4096']

        def ran(f):  # the order the processes ran in: rounds, each in the variants' order
            m = re.match(r'(\w+?)_r?(\d+)(_1)?\.json$', os.path.basename(f))
            return int(m.group(2)), order.index(m.group(1))
        files = sorted(glob.glob(os.path.join(here, 'ab', call, '*.json')), key=ran)
        print('## A/B %s: %s' % (call, what))
        print()
        print('Columns in the order the processes ran; medians of the repetitions.')
        print()
        args = ['%s=%s' % (re.sub(r'(_1)?\.json$', '', os.path.basename(f)), f) for f in files]
        sys.stdout.flush()
        subprocess.run([sys.executable, cmp] + args, check=True)
        print()


print('# Histogram evidence (H100, 2026-11-27), printed by summary.py')
print()
ncu_table()
full_profiles()
ab()
