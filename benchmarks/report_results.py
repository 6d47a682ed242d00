#!/usr/bin/env python3
"""Prints benchmarks/RESULTS.md: every goal of the benchmarks with its measured ratio,
device, date and plot, from the newest committed run of each benchmark family under
benchmarks/results/.

usage: report_results.py            print RESULTS.md to stdout
       report_results.py --write    write benchmarks/RESULTS.md
       report_results.py --check    exit 1 unless benchmarks/RESULTS.md is what it prints
       report_results.py --plots    also draw the plots a selected run lacks (matplotlib)
       report_results.py --runs     the dated folders RESULTS.md links

A family is a benchmark's name before its variant (`sort_u32` of `sort_u32_cub/1024`;
`dot` of stl_vs_cuda's `dot_pacxx`, as each report names them). A run is one JSON of a
benchmark program (sort.json, reductions.json, stl_vs_cuda.json, ...) outside `ab/`
folders and other A/B material; a family's newest run is the JSON with the latest
Google Benchmark date that holds it. Each goal is checked by the report that owns it
(report_stl.py, report.py, report_rof.py; the queues' saxpy goal as report_queues.py
states it) on that run alone, so a page is never a mix of two runs of one family.
"""
import collections
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report  # noqa: E402  (stl_vs_cuda, staging)
import report_queues  # noqa: E402
import report_rof  # noqa: E402
import report_stl  # noqa: E402
import report_tuning  # noqa: E402
import report_gemm_launches  # noqa: E402
import report_dist  # noqa: E402

RESULTS = os.path.join(HERE, 'results')
# The programs whose JSON is a run, and the report that reads it.
STL_PROGRAMS = {'reductions', 'scan', 'compaction', 'bykey', 'sort', 'segmented', 'shapes', 'nbody',
                'thrust_parity', 'random', 'canny', 'fluids'}
# Folders that hold A/B comparisons and experiments, not runs of the benchmarks.
NOT_RUNS = re.compile(r'/(ab|layout|pairs|interleaved)/')


def runs():
    """{program: [(date, relative path)]} of every committed run."""
    out = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(RESULTS, '**', '*.json'), recursive=True)):
        rel = os.path.relpath(path, RESULTS)
        program = os.path.basename(path)[:-len('.json')]
        if NOT_RUNS.search('/' + rel) or (program not in STL_PROGRAMS and program not in
                                          ('stl_vs_cuda', 'jit_overhead', 'rof', 'saxpy_async',
                                           'gemm', 'launches', 'tuning')):
            continue
        with open(path) as f:
            j = json.load(f)
        out[program].append((j.get('context', {}).get('date', ''), rel))
    return out


def device(rel):
    """The device, from the dated folder's name (<date>-<device>[-what])."""
    m = re.match(r'\d{4}-\d\d-\d\d-([a-z]\d+|pocl)', rel)
    return m.group(1).upper() if m else '?'


def plot_for(rel, names):
    """The first of names found beside the run, else elsewhere in its dated folder."""
    top = rel.split('/')[0]
    here = os.path.dirname(rel)
    for d in [here] + sorted({os.path.dirname(os.path.relpath(p, RESULTS)) for p in
                              glob.glob(os.path.join(RESULTS, top, '**', '*.png'), recursive=True)}):
        for n in names:
            if os.path.exists(os.path.join(RESULTS, d, n)):
                return os.path.join(d, n)
    return None


def cells(row):
    return [c.strip() for c in row.strip().strip('|').split(' | ')]


def goal_rows(lines):
    """The rows of a report's goals table (after its header and separator)."""
    return [cells(l) for l in lines if l.startswith('| ') and not l.startswith('| goal |')]


def newest(candidates):
    """{family: (date, rel)} over candidates [(date, rel, families)]."""
    best = {}
    for date, rel, fams in candidates:
        for fam in fams:
            if fam not in best or (date, rel) > best[fam]:
                best[fam] = (date, rel)
    return best


# STL families measured without a goal: (family, run, date, plot), listed after the goals.
NO_GOAL = []


def stl_goals(all_runs, rows, missing):
    candidates = []
    for program in sorted(STL_PROGRAMS):
        for date, rel in all_runs.get(program, []):
            t, _ = report_stl.load_all([os.path.join(RESULTS, rel)])
            candidates.append((date, rel, {f for (f, _) in t}))
    best = newest(candidates)
    by_run = collections.defaultdict(set)
    for fam, (date, rel) in best.items():
        by_run[(date, rel)].add(fam)
    for (date, rel), fams in sorted(by_run.items()):
        t, _ = report_stl.load_all([os.path.join(RESULTS, rel)])
        # A goal against another family (top_k against sort_whole) takes that family from
        # the same run; its own rows come from its newest run.
        beside = {b for (f, _, b, _, _, _, _) in report_stl.AGAINST if f in fams}
        t = {k: v for k, v in t.items() if k[0] in fams or k[0] in beside}
        with_goal = set()
        for goal, fam, met, worst in goal_rows(report_stl.goals(t)):
            if fam not in fams:
                continue
            with_goal.add(fam)
            plot = plot_for(rel, ['stl_%s.png' % fam])
            rows.append((goal, fam, met, worst, rel, date, plot))
        for fam in sorted(fams):
            plot = plot_for(rel, ['stl_%s.png' % fam])
            if not plot:
                missing.append((rel, 'stl', fam))
            if fam not in with_goal:
                NO_GOAL.append((fam, rel, date, plot))


def cuda_goals(all_runs, rows, missing):
    candidates = []
    for date, rel in all_runs.get('stl_vs_cuda', []):
        t = report.by_name(report.load(os.path.join(RESULTS, rel)))
        candidates.append((date, rel, {f for (f, _) in t if f != 'copy'}))
    by_run = collections.defaultdict(set)
    for fam, key in newest(candidates).items():
        by_run[key].add(fam)
    for (date, rel), fams in sorted(by_run.items()):
        t = report.by_name(report.load(os.path.join(RESULTS, rel)))
        t = {k: v for k, v in t.items() if k[0] in fams or k[0] == 'copy'}
        for goal, variant, met, worst in goal_rows(report.goals(t)):
            fam = goal.split()[0]
            plot = plot_for(rel, ['speedup_%s.png' % fam])
            if not plot:
                missing.append((rel, 'cuda', fam))
            rows.append((goal, '%s (%s)' % (fam, variant), met, worst, rel, date, plot))
        # Staging on against off: the processes beside this run (staging_1.* / staging_0.*).
        d = os.path.join(RESULTS, os.path.dirname(rel))
        on = sorted(glob.glob(os.path.join(d, 'staging_1.*.json')))
        off = sorted(glob.glob(os.path.join(d, 'staging_0.*.json')))
        if on and off and 'dot' in fams:
            for line in report.staging(on, off, None, d):
                m = re.match(r'Goal, (\w+): (.*?): (met|NOT met); (.*)\.$', line)
                if m:
                    rows.append((m.group(2), '%s (staging)' % m.group(1),
                                 'yes' if m.group(3) == 'met' else 'NO', m.group(4), rel, date,
                                 plot_for(rel, ['staging.png'])))


def rof_goals(all_runs, rows, missing):
    if not all_runs.get('rof'):
        return
    date, rel = max(all_runs['rof'])
    r, _ = report_rof.load(os.path.join(RESULTS, rel))
    plot = plot_for(rel, ['rof_speedup.png'])
    if not plot:
        missing.append((rel, 'rof', 'rof'))
    for goal, size, met, measured in goal_rows(report_rof.goals(r)):
        rows.append((goal, 'rof (%s)' % size, met, measured, rel, date, plot))


def queue_goals(all_runs, rows, missing):
    """Listing 7: gpu::async saxpy >= 0.97x Thrust at every size (report_queues.py)."""
    if not all_runs.get('saxpy_async'):
        return
    date, rel = max(all_runs['saxpy_async'])
    s, _ = report_queues.load(os.path.join(RESULTS, rel))
    by_n = collections.defaultdict(dict)  # as report_queues.py tables them
    for name, b in s.items():
        parts = name.split('/')
        by_n[int(parts[1])][parts[0]] = b['real_time']
    pts = [(n, r['saxpy_thrust'] / r['saxpy_pacxx_async']) for n, r in sorted(by_n.items())
           if 'saxpy_thrust' in r and 'saxpy_pacxx_async' in r]
    if pts:
        n, worst = min(pts, key=lambda p: p[1])
        plot = plot_for(rel, ['queues_saxpy_async.png'])
        if not plot:
            missing.append((rel, 'queues', 'saxpy_async'))
        rows.append(('gpu::async saxpy >= 0.97x Thrust, every size', 'saxpy (gpu::async)',
                     'yes' if worst >= 0.97 else 'NO', '%.2f (2^%d)' % (worst, n.bit_length() - 1),
                     rel, date, plot))


def gemm_launch_goals(all_runs, rows, missing):
    """Issues 36 and 37: gemm.json and launches.json (report_gemm_launches.py)."""
    for program, goals in (('gemm', report_gemm_launches.gemm_goals),
                           ('launches', report_gemm_launches.launch_goals)):
        if not all_runs.get(program):
            continue
        date, rel = max(all_runs[program])
        plot = plot_for(rel, [program + '.png'])
        if not plot:
            missing.append((rel, program, program))
        for goal, fam, met, measured in goals(os.path.join(RESULTS, rel)):
            rows.append((goal, fam, met, measured, rel, date, plot))


def tuning_goals(all_runs, rows, missing):
    """Issue 36's run-time tuning: tuning.json, newest run per device (report_tuning.py)."""
    newest_by_device = {}
    for date, rel in all_runs.get('tuning', []):
        d = device(rel)
        if d not in newest_by_device or date > newest_by_device[d][0]:
            newest_by_device[d] = (date, rel)
    for d, (date, rel) in sorted(newest_by_device.items()):
        plot = plot_for(rel, ['tuning.png'])
        if not plot:
            missing.append((rel, 'tuning', 'tuning'))
        for goal, fam, met, measured in report_tuning.tuning_goals(os.path.join(RESULTS, rel)):
            rows.append((goal, fam, met, measured, rel, date, plot))


def dist_goals(all_runs, rows, missing):
    """Issue 39: each goal from the newest folder of dist-np<N>-<transport>.json runs that
    measures it (report_dist.py): a run of only ROF's strong scaling leaves the weak
    scaling, halo and all-reduce goals to the run that has them."""
    folders = sorted({os.path.dirname(os.path.relpath(p, RESULTS)) for p in
                      glob.glob(os.path.join(RESULTS, '**', 'dist-np*-*.json'), recursive=True)})
    newest = {}  # goal -> (date, folder, row)
    for rel in folders:
        date = report_dist.date_of(os.path.join(RESULTS, rel))
        for row in report_dist.dist_goals(os.path.join(RESULTS, rel)):
            if row[0] not in newest or (date, rel) > newest[row[0]][:2]:
                newest[row[0]] = (date, rel, row)
    by_folder = collections.defaultdict(list)  # (folder, date) -> its newest goals
    for date, rel, row in newest.values():
        by_folder[(rel, date)].append(row)
    for (rel, date), goal_list in sorted(by_folder.items()):
        plot = plot_for(os.path.join(rel, 'dist-np1-nccl.json'), ['dist.png'])
        if not plot:
            missing.append((os.path.join(rel, 'dist-np1-nccl.json'), 'dist', 'dist'))
        nps = sorted(int(os.path.basename(p)[len('dist-np'):].split('-')[0]) for p in
                     glob.glob(os.path.join(RESULTS, rel, 'dist-np*-nccl.json')))
        run = os.path.join(rel, 'dist-np%d-nccl.json' % (nps[-1] if nps else 1))
        for goal, fam, met, measured in sorted(goal_list):
            rows.append((goal, fam, met, measured, run, date, plot))


def link(path):
    return '[%s](results/%s)' % (os.path.basename(path), path) if path else 'none'


def page():
    del NO_GOAL[:]
    all_runs = runs()
    rows, missing = [], []
    sections = [('The parallel STL against CUB and Thrust (report_stl.py)', stl_goals),
                ('The paper\'s Section 6: against Thrust, CUB and hand-written CUDA (report.py)', cuda_goals),
                ('Queues and futures (report_queues.py)', queue_goals),
                ('The paper\'s application, ROF denoising (report_rof.py)', rof_goals),
                ('Matrices and launches (report_gemm_launches.py)', gemm_launch_goals),
                ('Run-time tuning (report_tuning.py)', tuning_goals),
                ('Distributed ranges on MPI and NCCL (report_dist.py)', dist_goals)]
    out = ['# Benchmark results', '',
           'Printed by `benchmarks/report_results.py` from the newest committed run of each '
           'benchmark family under `benchmarks/results/`; do not edit by hand (`python3 '
           'benchmarks/report_results.py --write`; the ctest `benchmark_results` checks that '
           'this page is what the script prints). Each goal is checked on one run, by the '
           'report that owns it; "met" is the goal as the issue states it, "measured" the '
           'worst ratio over the sizes (pacxx / baseline as a speedup, higher is better, '
           'unless the goal says otherwise). Device and date are the run\'s; "run" links the '
           'JSON, whose folder\'s README says how it was made and what was learned.', '']
    met = total = 0
    for title, fn in sections:
        before = len(rows)
        fn(all_runs, rows, missing)
        new = rows[before:]
        if not new:
            continue
        out += ['## ' + title, '', '| goal | family | met | measured | device | date | run | plot |',
                '|---|---|---|---|---|---|---|---|']
        for goal, fam, ok, measured, rel, date, plot in new:
            total += 1
            met += ok == 'yes'
            out.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                goal, fam, ok if ok == 'yes' else '**%s**' % ok, measured, device(rel), date[:10],
                '[%s](results/%s)' % (os.path.dirname(rel), rel), link(plot)))
        out.append('')
    if NO_GOAL:
        out += ['## Measured without a goal', '',
                'Newest runs of the families no issue set a goal for (their tables are in the '
                'run folder\'s `parallel_stl.md`).', '',
                '| family | device | date | run | plot |', '|---|---|---|---|---|']
        for fam, rel, date, plot in sorted(NO_GOAL):
            out.append('| %s | %s | %s | %s | %s |' % (
                fam, device(rel), date[:10], '[%s](results/%s)' % (os.path.dirname(rel), rel), link(plot)))
        out.append('')
    out.insert(2, '%d of %d goals met.' % (met, total))
    out.insert(3, '')
    return '\n'.join(out) + '\n', missing


def draw_missing(missing):
    """Draws the plots a run lacks, with the plotting code of the report that owns it."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    for rel, kind, fam in missing:
        out_dir = os.path.join(RESULTS, os.path.dirname(rel))
        if kind == 'stl':
            t, _ = report_stl.load_all([os.path.join(RESULTS, rel)])
            pts = collections.defaultdict(list)
            # Against CUB and Thrust as report_stl.py plots; a family measured against
            # neither (the deterministic scan by key) against its other variants.
            bases = [v for v in ['cub', 'thrust'] if (fam, v) in t] or sorted(
                v for (f, v) in t if f == fam and v != 'pacxx')
            for n in sorted(t.get((fam, 'pacxx'), {})):
                for base in bases:
                    b = t.get((fam, base), {}).get(n)
                    if b:
                        pts['over ' + base].append((n, b['real_time'] / t[(fam, 'pacxx')][n]['real_time']))
            pts.update(report_stl.against_pts(t, fam))  # top_k, nth_element against the whole sort
            if pts:
                report.plot(plt, pts, 'pacxx speedup', fam, os.path.join(out_dir, 'stl_%s.png' % fam))
                print('drew', os.path.join(os.path.dirname(rel), 'stl_%s.png' % fam))
        else:
            print('no plot for %s (%s) and no code here to draw it' % (rel, fam))


def main(argv):
    text, missing = page()
    target = os.path.join(HERE, 'RESULTS.md')
    if '--plots' in argv and missing:
        draw_missing(missing)
        text, missing = page()
    if '--runs' in argv:
        for line in sorted(set(l.split('](results/')[1].split('/')[0] for l in text.splitlines()
                                if '](results/' in l)):
            print(line)
        return 0
    if '--check' in argv:
        with open(target, encoding='utf-8') as f:
            if f.read() != text:
                print('benchmarks/RESULTS.md differs from what report_results.py prints; run '
                      'python3 benchmarks/report_results.py --write and commit it')
                return 1
        print('benchmarks/RESULTS.md is what report_results.py prints')
        return 0
    if '--write' in argv:
        with open(target, 'w', encoding='utf-8') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for rel, kind, fam in missing:
        print('report_results: no plot for %s in %s (--plots draws it)' % (fam, rel), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
