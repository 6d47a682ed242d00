#!/usr/bin/env python3
"""Tables, goals and a plot of benchmarks/dist.cpp (issue 39, gpu::dist over MPI and
NCCL): one JSON per rank count and transport, dist-np<N>-<transport>.json (rank 0's
Google Benchmark output under mpirun; times are the slowest rank's). report_results.py
calls dist_goals() for RESULTS.md.

  weak/<op>          2^28 floats per GPU: parallel efficiency t(1 GPU) / t(N GPUs)
  halo/<bytes>       exchange_halo of one row beside raw/<bytes>, an NCCL send/recv of
                     the same size in the same program
  allreduce_scalar   one float summed over the ranks, every rank gets it
  strong/rof/<side>  one iteration of ROF on a side x side image split by rows:
                     speed-up t(1 GPU) / t(N GPUs)

usage: report_dist.py OUT_DIR   reads OUT_DIR/dist-np*.json, writes OUT_DIR/dist.md (and
                                dist.png where matplotlib is)
"""
import collections
import glob
import json
import os
import re
import sys

# Issue 39's weak-scaling goals at 4 GPUs (parallel efficiency).
WEAK_GOALS = {'transform': 0.95, 'reduce': 0.95, 'inclusive_scan': 0.9, 'sort': 0.7}
HALO_BOUND = 1.2  # halo exchange <= 1.2x a raw NCCL send/recv of the same size
ALLREDUCE_US = 30.0
# Issue 39's strong-scaling goals for ROF: {side: {GPUs: speed-up over one GPU}}.
STRONG_GOALS = {4096: {2: 1.8, 4: 3.2}, 8192: {2: 1.9, 4: 3.6}}


def load(folder):
    """{(np, transport): {name: (time in us, counters)}} of the folder's runs."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, 'dist-np*-*.json'))):
        m = re.search(r'dist-np(\d+)-(\w+)\.json$', path)
        if not m:
            continue
        with open(path) as f:
            j = json.load(f)
        runs = {}
        for b in j.get('benchmarks', []):
            if b.get('run_type') == 'aggregate' and b.get('aggregate_name') != 'median':
                continue
            if 'error_message' in b:
                continue
            name = b['name'].split('/iterations')[0].split('/manual_time')[0]
            scale = {'ns': 1e-3, 'us': 1.0, 'ms': 1e3, 's': 1e6}[b.get('time_unit', 'ns')]
            runs[name] = (b['real_time'] * scale, b)
        out[(int(m.group(1)), m.group(2))] = runs
    return out


def date_of(folder):
    for path in sorted(glob.glob(os.path.join(folder, 'dist-np*-*.json'))):
        with open(path) as f:
            return json.load(f).get('context', {}).get('date', '')
    return ''


def weak(runs, transport='nccl'):
    """{op: {np: efficiency}} against the one-GPU run of the same transport."""
    base = runs.get((1, transport), {})
    out = collections.defaultdict(dict)
    for (np, t), r in sorted(runs.items()):
        if t != transport:
            continue
        for name, (us, _) in r.items():
            if name.startswith('weak/') and name in base:
                out[name[len('weak/'):]][np] = base[name][0] / us
    return out


def strong(runs, transport='nccl'):
    """{side: {np: (speed-up, ms an iteration)}} of strong/rof/<side> against 1 GPU."""
    base = runs.get((1, transport), {})
    out = collections.defaultdict(dict)
    for (np, t), r in sorted(runs.items()):
        if t != transport:
            continue
        for name, (us, _) in r.items():
            m = re.match(r'strong/rof/(\d+)$', name)
            if m and name in base:
                out[int(m.group(1))][np] = (base[name][0] / us, us / 1e3)
    return out


def halo(runs, transport='nccl'):
    """[(np, bytes, halo us, raw us)] for every rank count above one."""
    out = []
    for (np, t), r in sorted(runs.items()):
        if t != transport or np < 2:
            continue
        for name, (us, _) in sorted(r.items()):
            m = re.match(r'halo/(\d+)$', name)
            if m and 'raw/' + m.group(1) in r:
                out.append((np, int(m.group(1)), us, r['raw/' + m.group(1)][0]))
    return out


def dist_goals(folder):
    """[(goal, family, met, measured)] as report_results.py tables them."""
    runs = load(folder)
    rows = []
    w = weak(runs)
    most = max([np for (np, t) in runs if t == 'nccl'] or [0])
    for op, bound in WEAK_GOALS.items():
        if op not in w or most not in w[op]:
            continue
        e = w[op][most]
        rows.append(('weak scaling >= %.2f parallel efficiency at %d GPUs' % (bound, most),
                     'dist::' + op, 'yes' if e >= bound else 'NO', '%.2f' % e))
    s = strong(runs)
    for side, goals in sorted(STRONG_GOALS.items()):
        for np, bound in sorted(goals.items()):
            if np in s.get(side, {}):
                speedup, ms = s[side][np]
                single = runs.get((1, 'nccl'), {}).get('single/rof/%d' % side)
                rows.append(('ROF %d^2 strong scaling >= %.1fx one GPU on %d GPUs'
                             % (side, bound, np), 'dist ROF', 'yes' if speedup >= bound else 'NO',
                             '%.2fx (%.3f ms an iteration%s)' % (
                                 speedup, ms, '; %.2fx the single-process solver' % (
                                     single[0] / 1e3 / ms) if single else '')))
    h = halo(runs)
    if h:
        worst = max(h, key=lambda x: x[2] / x[3])
        rows.append(('halo exchange <= %.1fx a raw NCCL send/recv of the same size' % HALO_BOUND,
                     'dist halo', 'yes' if worst[2] / worst[3] <= HALO_BOUND else 'NO',
                     '%.2fx (%d B, %d GPUs)' % (worst[2] / worst[3], worst[1], worst[0])))
    ar = [(np, r['allreduce_scalar'][0]) for (np, t), r in runs.items()
          if t == 'nccl' and np >= 2 and 'allreduce_scalar' in r]
    if ar:
        np, us = max(ar, key=lambda x: x[1])
        rows.append(('a scalar all-reduce <= %g us' % ALLREDUCE_US, 'dist::reduce (scalar)',
                     'yes' if us <= ALLREDUCE_US else 'NO', '%.1f us (%d GPUs)' % (us, np)))
    return rows


def main(folder):
    runs = load(folder)
    if not runs:
        sys.exit('report_dist.py: no dist-np*-*.json in %s' % folder)
    lines = ['# gpu::dist (benchmarks/dist.cpp), %s' % date_of(folder)[:10], '',
             'Printed by `benchmarks/report_dist.py`.', '',
             '## Goals', '', '| goal | family | met | measured |', '|---|---|---|---|']
    lines += ['| %s |' % ' | '.join(g) for g in dist_goals(folder)]
    for transport in sorted({t for (_, t) in runs}):
        nps = sorted(np for (np, t) in runs if t == transport)
        lines += ['', '## %s: times by rank count' % transport, '',
                  '| benchmark | ' + ' | '.join('%d GPU%s' % (n, 's' if n > 1 else '')
                                             for n in nps) + ' |',
                  '|---|' + '---|' * len(nps)]
        names = sorted({n for np in nps for n in runs[(np, transport)]})
        for name in names:
            cells = []
            for np in nps:
                r = runs[(np, transport)].get(name)
                cells.append('%.1f us' % r[0] if r else '-')
            lines.append('| %s | %s |' % (name, ' | '.join(cells)))
        w = weak(runs, transport)
        if w:
            lines += ['', '### %s: weak-scaling parallel efficiency (t at 1 GPU / t at N)'
                      % transport, '', '| operation | ' + ' | '.join(str(n) for n in nps) + ' |',
                      '|---|' + '---|' * len(nps)]
            for op in sorted(w):
                lines.append('| %s | %s |' % (op, ' | '.join(
                    '%.2f' % w[op][n] if n in w[op] else '-' for n in nps)))
        st = strong(runs, transport)
        if st:
            lines += ['', '### %s: ROF strong scaling (speed-up over 1 GPU; goal)' % transport,
                      '', 'Speed-up = time of one iteration on 1 GPU (the distributed solver on one '
                     'rank) / on N GPUs; the second row of an image divides the single-process '
                     'solver\'s time (`single/rof`, as `rof` runs it) instead.', '',
                     '| image | ' + ' | '.join('%d GPU%s' % (n, 's' if n > 1 else '')
                                                   for n in nps) + ' |',
                      '|---|' + '---|' * len(nps)]
            for side in sorted(st):
                single = runs.get((1, transport), {}).get('single/rof/%d' % side)
                cells = []
                for n in nps:
                    if n not in st[side]:
                        cells.append('-')
                        continue
                    speedup, ms = st[side][n]
                    goal = STRONG_GOALS.get(side, {}).get(n)
                    cells.append('%.2fx, %.3f ms%s' % (
                        speedup, ms, ' (goal %.1fx: %s)' % (goal, 'met' if speedup >= goal
                                                             else 'NOT met') if goal else ''))
                lines.append('| %d^2 | %s |' % (side, ' | '.join(cells)))
                if single:
                    lines.append('| %d^2 against the single-process solver (%.3f ms) | %s |' % (
                        side, single[0] / 1e3, ' | '.join(
                            '%.2fx' % (single[0] / 1e3 / st[side][n][1]) if n in st[side]
                            else '-' for n in nps)))
    with open(os.path.join(folder, 'dist.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return
    w = weak(runs)
    if w:
        plot(plt, folder, {op: {n: w[op][n] for n in w[op]} for op in w}, 1.0,
             'weak-scaling efficiency', 'gpu::dist, 2^28 floats per GPU (NCCL)')
        return
    # A run of ROF's strong scaling only (gpu-dist.sh with ROF_ONLY=1): its plot.
    st = strong(runs)
    if st:
        plot(plt, folder, {'ROF %d^2' % side: {n: st[side][n][0] for n in st[side]}
                           for side in st}, None, 'speed-up over 1 GPU',
             'gpu::dist ROF strong scaling (NCCL)')


def plot(plt, folder, series, level, ylabel, title):
    """dist.png: one line of {GPUs: value} per label; level a grey line (None: linear)."""
    fig, ax = plt.subplots(figsize=(6, 4))
    for label in sorted(series):
        nps = sorted(series[label])
        ax.plot(nps, [series[label][n] for n in nps], marker='o', label=label)
    ticks = sorted({n for label in series for n in series[label]})
    if level is None:
        ax.plot([1, ticks[-1]], [1, ticks[-1]], color='grey', lw=0.5, label='linear')
    else:
        ax.axhline(level, color='grey', lw=0.5)
    ax.set_xlabel('GPUs (one process each)')
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.set_xticks(ticks)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, 'dist.png'), dpi=110)

if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
