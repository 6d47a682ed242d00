#!/usr/bin/env python3
# Prints ncu.md: the reduction and search kernels under ncu (one kernel per call), the
# median and minimum over the launches profiled, from ncu/*.csv.
import glob, os, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ncu_csv  # benchmarks/ncu_csv.py
here = os.path.dirname(os.path.abspath(__file__))
COLS = [('gpu__time_duration.sum', 'time median (us)'), ('launch__registers_per_thread', 'registers'),
        ('launch__grid_size', 'blocks'), ('sm__warps_active.avg.pct_of_peak_sustained_active', 'warps active %'),
        ('smsp__inst_executed.sum', 'instructions')]
print('# ncu, reductions and any_of (H100, 2026-11-26)\n')
print('`ncu --cache-control none --clock-control none --launch-skip 5 --launch-count 20`, one '
      'process per row; `call3_*`: main and the tree fold (README), `call4_*`: main, find2 and '
      'find3 (the searches\' variants) on another machine, `call8_*`: edfd157 (head) and '
      '32-bit indices for min_element (idx32) on a third.\n')
print('| run | launches | ' + ' | '.join(c for _, c in COLS) + ' | time min (us) |')
print('|---|---' + '|---' * len(COLS) + '|---|')
key = lambda f: (os.path.basename(f).split('_')[0], int(os.path.basename(f)[:-4].split('_')[-1]), f)
for f in sorted(glob.glob(os.path.join(here, 'ncu', '*.csv')), key=key):
    m = ncu_csv.metrics(f)
    t = m.get(COLS[0][0], [])
    if not t:
        continue
    vals = []
    for k, c in COLS:
        x = statistics.median(m[k])
        vals.append(f'{x / 1000:.2f}' if k == COLS[0][0] else f'{x:.1f}' if x < 100 else f'{x:.0f}')
    print(f'| {os.path.basename(f)[:-4]} | {len(t)} | ' + ' | '.join(vals) + f' | {min(t) / 1000:.2f} |')

# The u32 pairs sorts at 2^27 (benchmarks/sort with PACXX_BENCH_PROFILE_N=134217728 under
# ncu --profile-from-start off: only the timed loops at 2^27 are profiled), in a process
# that ran every size before (all) and in one that started at 2^26 (top).
print('\n# ncu, u32 pairs at 2^27 (H100, 2026-11-26): per kernel, medians over the launches '
      'profiled\n')
print('`ncu --profile-from-start off --cache-control none --clock-control none`; one sort '
      'call each of pacxx (264edd4) and CUB was profiled (the benchmark ran few iterations '
      'under ncu).\n')
print('| process | kernel | block | grid | launches | time (us) | DRAM read (MB) | '
      'DRAM write (MB) | L2 hit % | registers |')
print('|---|---|---|---|---|---|---|---|---|---|')
for v in ['all', 'top']:
    k = {}
    for r, metric, x in ncu_csv.rows(os.path.join(here, 'ncu-pairs', f'pairs_{v}.csv')):
        name = r[4]
        short = 'CUB ' + name.split('<')[0].split('::')[-1] if 'cub::' in name else 'pacxx'
        k.setdefault((short, r[7].strip('()').split(',')[0], r[8].strip('()').split(',')[0]), {}) \
            .setdefault(metric, []).append(x)
    for (name, block, grid), m in k.items():
        med = lambda key: statistics.median(m[key])
        t = m['gpu__time_duration.sum']
        print(f'| {v} | {name} | {block} | {grid} | {len(t)} | {med("gpu__time_duration.sum") / 1000:.1f} | '
              f'{med("dram__bytes_read.sum") / 1e6:.1f} | {med("dram__bytes_write.sum") / 1e6:.1f} | '
              f'{med("lts__t_sector_hit_rate.pct"):.1f} | {med("launch__registers_per_thread"):.0f} |')
