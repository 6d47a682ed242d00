#!/usr/bin/env python3
# Prints ncu.md from the ncu logs of this folder (run from anywhere):
#   ncu/pass/: `--set full` of one onesweep pass (the second) of u32 pairs, pacxx and
#     CUB, details pages (--page details --csv) and SASS pages with stall samples
#     (--page source --print-source sass --csv, gzipped);
#   ncu/reductions/: the same pages (SourceCounters, WarpStateStats sections) of
#     min_element and the float sum at 2^20 and 2^22;
#   ncu/histogram/call5, call6: `--metrics` logs of the radix histogram launch per shape.
import os
import sys
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..'))
import ncu_csv  # noqa: E402


def details(path):
    """{metric name: (value, unit)} of the first launch of a details page."""
    return ncu_csv.detail_launches(path)[0][1]


def sass(path):
    """(rows, header index) of the first kernel of a source page."""
    return ncu_csv.source_kernels(path)[0]


def stall_shares(path):
    return ncu_csv.stall_counts(*sass(path))


def hot(path, share):
    """The instructions with at least `share` of the samples: (index, share, executed,
    sass, top stall reason, its samples)."""
    rows, ix = sass(path)
    stalls = [h for h in ix if h.startswith('stall_') and 'Not Issued' not in h]
    samples = lambda r: int(r[ix['Warp Stall Sampling (All Samples)']] or 0)
    total = sum(samples(r) for r in rows)
    out = []
    for k, r in enumerate(rows):
        s = samples(r)
        if s >= share * total:
            top = max(stalls, key=lambda h: int(r[ix[h]] or 0))
            out.append((k, s / total, r[ix['Instructions Executed']], r[ix['Source']].strip(),
                        top[len('stall_'):], int(r[ix[top]] or 0)))
    return out, total


def table(header, rows):
    print('| ' + ' | '.join(header) + ' |')
    print('|' + '---|' * len(header))
    for r in rows:
        print('| ' + ' | '.join(str(x) for x in r) + ' |')
    print()


P = os.path.join(here, 'ncu', 'pass')
print('# ncu (H100, 2026-11-26), printed by ncu_summary.py')
print()
print('## 1. One onesweep pass of u32 pairs (the second), pacxx against CUB')
print()
print('`ncu --set full --cache-control none --clock-control none`, one launch each. call3: one')
print('machine, pacxx at 2^27 and 2^28, CUB at 2^27 (at 2^28 CUB sorts in two portions and the')
print('launch profiled was the second portion\'s single tile). call4: main and the values loaded')
print('before the look-back (early), 2^27, another machine.')
print()
runs = [('call3 pacxx 2^27', 'pacxx_134217728'), ('call3 CUB 2^27', 'cub_134217728'),
        ('call3 pacxx 2^28', 'pacxx_268435456'), ('call4 main 2^27', 'call4_main_134217728'),
        ('call4 early 2^27', 'call4_early_134217728')]
wanted = ['Duration', 'Grid Size', 'Block Size', 'Registers Per Thread',
          'Static Shared Memory Per Block', 'Executed Instructions', 'DRAM Throughput',
          'L2 Hit Rate', 'Achieved Active Warps Per SM', 'Issue Slots Busy']
ds = [details(os.path.join(P, f + '_details.csv')) for _, f in runs]
rows = []
for m in wanted:
    unit = next((d[m][1] for d in ds if m in d), '')
    rows.append([m + (f' ({unit})' if unit else '')] + [d.get(m, ('-', ''))[0] for d in ds])
table(['metric'] + [r for r, _ in runs], rows)

print('Warp stall samples by reason (share of all samples; the count of samples, and per')
print('tile, in the last columns):')
print()
rows = []
for label, f in runs:
    c = stall_shares(os.path.join(P, f + '_sass.csv.gz'))
    total = sum(c.values())
    tiles = float(ds[[r for r, _ in runs].index(label)]['Grid Size'][0].replace(',', ''))
    top = ', '.join(f'{k} {100.0 * v / total:.1f} %' for k, v in c.most_common(6))
    rows.append([label, top, total, f'{total / tiles:.2f}'])
table(['run', 'largest reasons', 'samples', 'samples a tile'], rows)

print('The instructions with at least 5 % of the samples (index in the SASS page, share,')
print('times executed by warps, instruction, its largest reason and its samples):')
print()
for label, f in runs[:2]:
    h, total = hot(os.path.join(P, f + '_sass.csv.gz'), 0.05)
    print(f'### {label} ({total} samples)')
    print()
    table(['#', 'share', 'executed', 'SASS', 'reason', 'samples'],
          [[k, f'{100 * s:.1f} %', e, '`' + src + '`', why, n] for k, s, e, src, why, n in h])

print('## 2. The radix histogram launch per shape (block x items at most blocks)')
print()
print('`ncu --metrics gpu__time_duration.sum,...`, the second launch of a u32 key sort')
print('(the histogram; the first clears the counters), and CUB\'s histogram kernel. call5')
print('and call6 ran on two machines; one launch each. Times in µs.')
print()
H = os.path.join(here, 'ncu', 'histogram')
times = defaultdict(dict)
for call in ('call5', 'call6'):
    for f in sorted(os.listdir(os.path.join(H, call))):
        name, n = f[:-4].rsplit('_', 1)
        launches = defaultdict(dict)
        for r, metric, value in ncu_csv.rows(os.path.join(H, call, f)):
            launches[int(r[0])][metric] = value
        t = [m['gpu__time_duration.sum'] / 1000 for i, m in sorted(launches.items())
             if name == 'cub' or i % 6 == 1]
        label = 'CUB' if name == 'cub' else name.replace('sort_h', '')
        times[label].setdefault(int(n), []).extend((call, x) for x in t)
sizes = sorted({n for d in times.values() for n in d})
rows = []
for label in sorted(times, key=lambda l: (l != 'CUB', l)):
    row = [label]
    for n in sizes:
        v = times[label].get(n, [])
        row.append(' / '.join(f'{x:.1f} ({c})' for c, x in v) if v else '-')
    rows.append(row)
table(['shape'] + [f'2^{n.bit_length() - 1}' for n in sizes], rows)

print('## 3. min_element and the float sum, stall samples (SourceCounters)')
print()
print('`ncu --section SourceCounters --section WarpStateStats ...`, 4 launches each, the first')
print('one\'s page. Few samples: these kernels run for 4-7 µs.')
print()
R = os.path.join(here, 'ncu', 'reductions')
rows = []
for name in ('sum_pacxx', 'min_element_pacxx'):
    for n in (1048576, 4194304):
        f = f'{name}_{n}'
        d = details(os.path.join(R, f + '_details.csv'))
        c = stall_shares(os.path.join(R, f + '_sass.csv.gz'))
        total = sum(c.values())
        rows.append([name, f'2^{n.bit_length() - 1}', d['Duration'][0], d['Block Size'][0],
                     d['Grid Size'][0], total,
                     ', '.join(f'{k} {v}' for k, v in c.most_common(5))])
table(['kernel', 'n', 'duration (µs)', 'block', 'grid', 'samples', 'largest reasons (samples)'],
      rows)
