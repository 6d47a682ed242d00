#!/usr/bin/env python3
"""Tables, goals and plots of two benchmark programs whose names report_stl.py cannot
parse: gemm (issue 36: gpu::gemm / gemv / gemm_batched against cuBLAS, TFLOP/s and
bytes/s counters, names `sgemm_pacxx/m:1024/n:1024/k:1024`) and launches (issue 37:
launch costs in `launch_us`, fixed-point passes in `pass_us`). report_results.py calls
gemm_goals() and launch_goals() for RESULTS.md.

usage: report_gemm_launches.py OUT_DIR gemm.json|launches.json   writes OUT_DIR/gemm.md or
                                                                  launches.md (and a plot
                                                                  where matplotlib is)
"""
import json
import os
import sys


def medians(path):
    with open(path) as f:
        j = json.load(f)
    out = {}
    for b in j['benchmarks']:
        if b.get('run_type') == 'aggregate' and b.get('aggregate_name') != 'median':
            continue
        out[b['name'].replace('/real_time', '').replace('_median', '')] = b
    return out, j.get('context', {})


def gemm_rows(path):
    """[(operation, shape, pacxx, cublas, unit)] from gemm.json."""
    m, _ = medians(path)
    rows = []
    for name, b in sorted(m.items()):
        op, _, shape = name.partition('/')
        if not op.endswith('_pacxx'):
            continue
        base = m.get(op[:-len('_pacxx')] + '_cublas/' + shape)
        if not base:
            continue
        unit = 'TFLOP/s' if 'TFLOP/s' in b else 'bytes_per_second'
        rows.append((op[:-len('_pacxx')], shape.replace('m:', '').replace('/n:', 'x').replace(
            '/k:', 'x').replace('/batch:', ' x'), b[unit], base[unit], unit))
    return rows


# (operation, shapes or None for every shape, bound on pacxx / cuBLAS, what issue 36 asks)
GEMM_GOALS = [
    ('sgemm', ['2048x2048x2048', '4096x4096x4096'], 0.9, 'SGEMM FP32 >= 0.9x cuBLAS at 2048 and 4096 square'),
    ('sgemm', ['1024x1024x1024', '1000x1000x1000', '777x1023x513'], 0.8,
     'SGEMM FP32 >= 0.8x cuBLAS at 1024 and odd shapes'),
    ('dgemm', None, 0.85, 'DGEMM >= 0.85x cuBLAS'),
    ('sgemv', None, 0.95, 'GEMV >= 0.95x cuBLAS at 8192^2'),
    ('sgemm_batched', None, 1.0, 'batched 64x64x64 x 4096 >= cuBLAS strided-batched'),
]


def gemm_goals(path):
    """[(goal, family, met, worst)] as report_results.py tables them."""
    rows = gemm_rows(path)
    out = []
    for op, shapes, bound, label in GEMM_GOALS:
        pts = [(s, p / c) for o, s, p, c, _ in rows if o == op and (shapes is None or s in shapes)]
        if pts:
            s, worst = min(pts, key=lambda p: p[1])
            out.append((label, op, 'yes' if worst >= bound else 'NO', '%.2f (%s)' % (worst, s)))
    return out


def launch_values(path):
    m, _ = medians(path)
    v = {}
    for name, b in m.items():
        for counter in ('launch_us', 'pass_us'):
            if counter in b:
                v[name] = b[counter]
    return v


def launch_goals(path):
    v = launch_values(path)
    out = []
    if 'axpy_pacxx_graph' in v:
        out.append(('a captured sequence of 2000 small launches <= 1.3 us a launch', 'axpy (graph)',
                    'yes' if v['axpy_pacxx_graph'] <= 1.3 else 'NO', '%.2f us' % v['axpy_pacxx_graph']))
    if 'axpy_cuda_launch' in v:
        for variant in ('transform', 'kernel'):
            k = 'axpy_pacxx_' + variant
            if k in v:
                r = v[k] / v['axpy_cuda_launch']
                out.append(('plain pacxx launches <= 1.05x a raw CUDA launch', 'axpy (%s)' % variant,
                            'yes' if r <= 1.05 else 'NO', '%.2fx (%.2f us)' % (r, v[k])))
    # ROF's solver beside it (rof_launch_bound.json: benchmarks/rof.cpp filtered to
    # pacxx, pacxxgraph and the hand-fused CUDA at 1024^2 and 4096^2).
    rof = os.path.join(os.path.dirname(path), 'rof_launch_bound.json')
    if os.path.exists(rof):
        m, _ = medians(rof)
        t = {k: b['real_time'] for k, b in m.items()}
        if 'rof_pacxx/1024' in t and 'rof_pacxxgraph/1024' in t:
            # Issue 37's goal is absolute: >= 1.3x "today's 0.017 ms an iteration" (the direct
            # launches on the H100 when it was filed), so at most 0.017 / 1.3 ms. One benchmark
            # iteration is 100 solver iterations. The ratio to this run's direct launches is
            # printed beside it: the direct path got cheaper too (issue 37's third must-have).
            ms = t['rof_pacxxgraph/1024'] / 100
            r = t['rof_pacxx/1024'] / t['rof_pacxxgraph/1024']
            out.append(('ROF at 1024^2 (launch-bound) >= 1.3x the 0.017 ms an iteration of the issue',
                        'rof (graph, 1024)', 'yes' if ms <= 0.017 / 1.3 else 'NO',
                        '%.2fx (%.4f ms an iteration; %.2fx this run\'s direct launches)' % (
                            0.017 / ms, ms, r)))
        if 'rof_pacxx/4096' in t and 'rof_cuda/4096' in t:
            r = t['rof_pacxx/4096'] / t['rof_cuda/4096']
            out.append(('ROF at 4096^2 within 1.02x of the hand-fused CUDA', 'rof (4096)',
                        'yes' if r <= 1.02 else 'NO', '%.3fx' % r))
    if 'fixed_point_host_loop' in v and 'fixed_point_iterate_graph' in v:
        r = v['fixed_point_host_loop'] / v['fixed_point_iterate_graph']
        out.append(('fixed point, a test every 8 passes >= 3x the host loop with a readback a pass',
                    'fixed_point (graph)', 'yes' if r >= 3 else 'NO', '%.2fx' % r))
    return out


def main(out_dir, path):
    name = os.path.basename(path)[:-len('.json')]
    _, ctx = medians(path)
    lines = ['# %s' % {'gemm': 'gpu::gemm, gemv and gemm_batched beside cuBLAS (issue 36)',
                       'launches': 'Launch costs, graphs and fixed points (issue 37)'}[name], '',
             'Date: %s. Median of the repetitions. Printed by benchmarks/report_gemm_launches.py.'
             % ctx.get('date', '?'), '', '| goal | family | met | measured |', '|---|---|---|---|']
    goals = gemm_goals(path) if name == 'gemm' else launch_goals(path)
    lines += ['| %s | %s | %s | %s |' % g for g in goals]
    lines.append('')
    if name == 'gemm':
        lines += ['| operation | m x n x k | pacxx | cuBLAS | pacxx / cuBLAS |', '|---|---|---|---|---|']
        for op, shape, p, c, unit in gemm_rows(path):
            scale, u = (1, 'TFLOP/s') if unit == 'TFLOP/s' else (1e-9, 'GB/s')
            lines.append('| %s | %s | %.1f %s | %.1f %s | %.2f |' % (op, shape, p * scale, u, c * scale, u, p / c))
    else:
        lines += ['| benchmark | us |', '|---|---|']
        lines += ['| %s | %.2f |' % (k, x) for k, x in sorted(launch_values(path).items())]
    with open(os.path.join(out_dir, name + '.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return
    plt.figure(figsize=(7, 4))
    if name == 'gemm':
        rows = gemm_rows(path)
        labels = ['%s %s' % (o, s) for o, s, _, _, _ in rows]
        plt.bar(range(len(rows)), [p / c for _, _, p, c, _ in rows])
        plt.xticks(range(len(rows)), labels, rotation=60, ha='right', fontsize=7)
        plt.ylabel('pacxx / cuBLAS')
    else:
        v = launch_values(path)
        plt.barh(list(v), list(v.values()))
        plt.xlabel('us per launch (axpy) or pass (fixed_point)')
    plt.axhline(1.0, color='gray', lw=0.8) if name == 'gemm' else None
    plt.title(name)
    plt.tight_layout()
    plt.savefig(os.path.join(out_dir, name + '.png'), dpi=110)
    plt.close()


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
