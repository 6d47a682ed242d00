#!/usr/bin/env python3
"""Compares Google Benchmark runs side by side (A/B of a policy or a code path, or the
same program run twice): one markdown table per benchmark family, a row per size, a
column of median real times (us) per run.

    compare_runs.py [--filter REGEX] LABEL=run.json [LABEL=run.json ...]

Names are '<family>_<variant>/<n>/real_time' (as report_stl.py reads them); --filter
keeps the names whose '<family>_<variant>' part matches. Written for the variants that
benchmarks/README.md describes (timing programs built with -D values), so that the
figures a results README cites are printed by a program."""
import argparse, os, re, sys

# report_stl.py is in benchmarks/, one folder up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from report_stl import load_all  # the medians, as the results pages read them


def medians(path):
    table, _ = load_all([path])
    return {('%s_%s' % fv, n): b['real_time'] for fv, runs in table.items() for n, b in runs.items()}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--filter', default='.')
    ap.add_argument('runs', nargs='+', help='LABEL=file.json')
    a = ap.parse_args(argv)
    runs = []
    for r in a.runs:
        label, _, path = r.partition('=')
        if not path:
            sys.exit('compare_runs.py: expected LABEL=file.json, got %r' % r)
        runs.append((label, medians(path)))
    names = sorted({name for _, m in runs for (name, _) in m if re.search(a.filter, name)})
    lines = []
    for name in names:
        sizes = sorted({n for _, m in runs for (nm, n) in m if nm == name})
        lines += ['### %s' % name, '', '| n | ' + ' | '.join('%s µs' % l for l, _ in runs) + ' |',
                  '|---|' + '---|' * len(runs)]
        for n in sizes:
            cells = ['%.1f' % m[(name, n)] if (name, n) in m else '-' for _, m in runs]
            lines.append('| 2^%d | %s |' % (n.bit_length() - 1, ' | '.join(cells)))
        lines.append('')
    print('\n'.join(lines))


if __name__ == '__main__':
    main(sys.argv[1:])
