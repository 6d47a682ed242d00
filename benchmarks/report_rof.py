#!/usr/bin/env python3
"""ROF denoising's results (issue 11). Reads the Google Benchmark JSON of rof_benchmark
(benchmarks/rof.cpp), the log of the ROF example on the photograph (examples/rof, run
with --every), the log of the 2048^2 correctness test, and the example's images, and
writes into the results directory:
  rof.md                the goals table, the table by size (ms per iteration, kernel
                        launches per iteration, device memory, traffic against the copy
                        rate), the example's trace;
  rof_speedup.png       pacxx's speedup over the Thrust and the CUDA version by size;
  rof_convergence.png   energy and primal-dual residual by iteration (the example's log);
  rof_before_after.png  noisy input and denoised output (whole image and a detail).

usage: report_rof.py OUT_DIR rof.json EXAMPLE_LOG [TEST_LOG] [NOISY.png DENOISED.png]
Benchmark names are 'rof_<variant>/<side>/real_time'; one benchmark iteration is 100
solver iterations."""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import plot  # one plot style for every results page

ITERATIONS = 100  # solver iterations per benchmark iteration (benchmarks/rof.cpp)

def load(path):
    with open(path) as f:
        j = json.load(f)
    runs = {}
    for b in j['benchmarks']:
        if b.get('run_type') == 'aggregate' and b.get('aggregate_name') != 'median':
            continue
        if b.get('error_occurred'):
            continue
        name, side = b['name'].split('/')[0], int(b['name'].split('/')[1])
        runs[(name.rpartition('_')[2], side)] = b
    return runs, j.get('context', {})

def ms_per_iter(b):
    assert b['time_unit'] == 'ms'
    return b['real_time'] / ITERATIONS

def parse_log(path):
    """The example's table: iteration, energy, primal res., dual res., PSNR."""
    rows, lines = [], []
    if not path or not os.path.exists(path):
        return rows, lines
    with open(path) as f:
        for line in f:
            lines.append(line.rstrip('\n'))
            t = line.split()
            if len(t) == 5 and t[0].isdigit() and t[2] != '-':
                rows.append((int(t[0]), float(t[1]), float(t[2]), float(t[3])))
    return rows, lines

def goals(runs):
    out = ['## Goals (issue 11)', '', '| goal | size | met | measured |', '|---|---|---|---|']
    for side in (2048, 4096):
        p, t, c = runs.get(('pacxx', side)), runs.get(('thrust', side)), runs.get(('cuda', side))
        if p and t:
            s = ms_per_iter(t) / ms_per_iter(p)
            out.append('| pacxx >= 1.6x the FlexBox-style Thrust version (aim 2.5x) | %d^2 | %s | %.2fx |' % (
                side, 'yes' if s >= 1.6 else 'NO', s))
        if p and c:
            r = ms_per_iter(p) / ms_per_iter(c)
            out.append('| pacxx within 1.5x of hand-fused CUDA | %d^2 | %s | %.2fx the CUDA time |' % (
                side, 'yes' if r <= 1.5 else 'NO', r))
        if p and t:
            lp, lt = p['launches_per_iter'], t['launches_per_iter']
            out.append('| fewer kernels per iteration than Thrust | %d^2 | %s | %.2f against %.2f |' % (
                side, 'yes' if lp < lt else 'NO', lp, lt))
    return out + ['']

def table(runs):
    out = ['## By image size', '',
           'ms per iteration (median of the repetitions of 100 iterations each); kernel launches '
           'per iteration (pacxx::stats(), and for the baselines the CUDA runtime\'s launch entry '
           'points wrapped at link time); device memory held (cudaMemGetInfo before set-up minus '
           'after the first iteration); effective bandwidth = the two-pass schedule\'s compulsory '
           'traffic (14 floats a pixel) over the time, against cudaMemcpy device to device at the '
           'image\'s size. thrustnosync: the Thrust version\'s calls under thrust::cuda::par_nosync '
           '(Thrust\'s default, as in FlexBox, waits for the device after every call); for reference.', '',
           '| pixels | variant | ms / iteration | launches / iteration | device MiB | '
           'compulsory MB / iteration | effective GB/s | of copy rate | pacxx speedup |',
           '|---|---|---|---|---|---|---|---|---|']
    sides = sorted({s for (_, s) in runs})
    for side in sides:
        p = runs.get(('pacxx', side))
        for v in ('pacxx', 'cuda', 'thrust', 'thrustnosync'):
            b = runs.get((v, side))
            if not b:
                continue
            ms = ms_per_iter(b)
            gbps = b['bytes_per_iter'] / (ms * 1e6)
            speed = '-' if v == 'pacxx' or not p else '%.2fx' % (ms / ms_per_iter(p))
            out.append('| %d^2 | %s | %.3f | %.2f | %.0f | %.1f | %.0f | %.0f%% (%.0f GB/s) | %s |' % (
                side, v, ms, b['launches_per_iter'], b['device_MiB'], b['bytes_per_iter'] / 1e6,
                gbps, 100 * gbps / b['copy_GBps'], b['copy_GBps'], speed))
    return out + ['']

def convergence_plot(plt, rows, path):
    it = [r[0] for r in rows]
    fig, ax1 = plt.subplots(figsize=(6, 4))
    ax1.plot(it, [r[1] for r in rows], color='C0', marker='.', label='energy')
    ax1.set_xlabel('iteration')
    ax1.set_ylabel('energy', color='C0')
    ax2 = ax1.twinx()
    ax2.plot(it, [r[2] + r[3] for r in rows], color='C1', marker='.', label='primal + dual residual')
    ax2.set_yscale('log')
    ax2.set_ylabel('primal + dual residual (per pixel)', color='C1')
    ax1.set_title('ROF on the photograph: energy and residual')
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

def before_after(plt, noisy_path, denoised_path, path):
    import matplotlib.image as mpimg
    a, b = mpimg.imread(noisy_path), mpimg.imread(denoised_path)
    h, w = a.shape[:2]
    y0, x0, d = h // 4, w // 3, min(h, w) // 4  # a detail: a quarter of the side
    fig, axes = plt.subplots(2, 2, figsize=(8, 8))
    for row, (img, label) in enumerate([(a, 'noisy'), (b, 'denoised (ROF)')]):
        axes[row][0].imshow(img, cmap='gray', vmin=0, vmax=1)
        axes[row][0].set_title('%s, %dx%d' % (label, w, h))
        axes[row][1].imshow(img[y0:y0 + d, x0:x0 + d], cmap='gray', vmin=0, vmax=1,
                            interpolation='nearest')
        axes[row][1].set_title('%s, detail' % label)
        for ax in axes[row]:
            ax.axis('off')
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

def main(out_dir, bench_json, example_log, test_log=None, noisy=None, denoised=None):
    runs, ctx = load(bench_json)
    rows, log_lines = parse_log(example_log)
    lines = ['# ROF denoising (issue 11): pacxx views against FlexBox-style Thrust and hand-fused CUDA', '',
             'Device: %s. Date: %s. Median of %s repetitions.' % (
                 os.environ.get('PACXX_BENCH_DEVICE', '?'), ctx.get('date', '?'),
                 os.environ.get('PACXX_BENCH_REPS', '?')), '']
    lines += goals(runs)
    lines += table(runs)
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    if plt:
        series = {}
        for base in ('thrust', 'cuda'):
            pts = [(s * s, ms_per_iter(runs[(base, s)]) / ms_per_iter(runs[('pacxx', s)]))
                   for (v, s) in sorted(runs) if v == 'pacxx' and (base, s) in runs]
            if pts:
                series['over ' + base] = pts
        if series:
            plot(plt, series, 'pacxx speedup', 'ROF, 100 iterations', os.path.join(out_dir, 'rof_speedup.png'))
            lines += ['![speedup](rof_speedup.png)', '']
        if rows:
            convergence_plot(plt, rows, os.path.join(out_dir, 'rof_convergence.png'))
            lines += ['![energy and residual](rof_convergence.png)', '']
        if noisy and denoised and os.path.exists(noisy) and os.path.exists(denoised):
            before_after(plt, noisy, denoised, os.path.join(out_dir, 'rof_before_after.png'))
            lines += ['![before and after](rof_before_after.png)', '']
    if log_lines:
        lines += ['## The example on the photograph', '', '```'] + log_lines + ['```', '']
    if test_log and os.path.exists(test_log):
        with open(test_log) as f:
            summary = [l.rstrip('\n') for l in f if l.startswith('[  ') or 'Failure' in l or 'relative' in l]
        lines += ['## rof_test at 2048^2 on this GPU (CPU reference, 1e-5 relative)', '', '```'] + \
            summary + ['```', '']
    with open(os.path.join(out_dir, 'rof.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')

if __name__ == '__main__':
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
