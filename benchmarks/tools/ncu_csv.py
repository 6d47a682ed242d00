#!/usr/bin/env python3
# Readers of ncu's CSV output for the summary scripts of results folders: the rows of an
# `ncu --csv --metrics ...` log, and the details and source (SASS) pages of a report
# (`ncu -i R --page details --csv`, `--page source --print-source sass --csv`, gzipped).
# A --metrics log: one (row, metric, value) per metric of each profiled launch. ncu's columns:
# 0 the launch's ID, 4 the kernel's name, 7 block, 8 grid, 12 the metric's name, 14 its
# value (with thousands separators). Lines that are not launches (the program's own
# output, ncu's ==PROF== lines) and values that are not numbers are skipped.
import csv
import gzip
from collections import Counter


def rows(path):
    for r in csv.reader(open(path)):
        if len(r) < 15 or not r[0].isdigit():
            continue
        try:
            yield r, r[12], float(r[14].replace(',', ''))
        except ValueError:
            pass


def metrics(path):
    """Every metric's values over the launches in path: {name: [value, ...]}."""
    m = {}
    for _, name, value in rows(path):
        m.setdefault(name, []).append(value)
    return m


def detail_launches(path):
    """The launches of a details page, in order: [(grid, {metric name: (value, unit)})].
    Lines before the header (ncu's own messages) are skipped."""
    text = open(path).read()
    launches = {}
    for r in csv.DictReader(text[text.find('"ID"'):].splitlines()):
        grid, metrics = launches.setdefault(r['ID'], (r['Grid Size'], {}))
        metrics.setdefault(r['Metric Name'], (r['Metric Value'], r['Metric Unit']))
    return list(launches.values())


def source_kernels(path):
    """The kernels of a gzipped source page, in order: [(rows, {column: index})]."""
    rows = list(csv.reader(gzip.open(path, 'rt')))
    starts = [i for i, r in enumerate(rows) if r and r[0] == 'Kernel Name'] + [len(rows)]
    return [(rows[a + 2:b], {h: i for i, h in enumerate(rows[a + 1])})
            for a, b in zip(starts, starts[1:])]


def stall_counts(rows, ix):
    """Warp stall samples by reason over the rows of one kernel's source page."""
    stalls = [h for h in ix if h.startswith('stall_') and 'Not Issued' not in h]
    c = Counter()
    for r in rows:
        for h in stalls:
            c[h[len('stall_'):]] += int(r[ix[h]] or 0)
    return c
