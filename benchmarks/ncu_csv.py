#!/usr/bin/env python3
# The rows of an `ncu --csv --metrics ...` log, for the ncu_summary.py of results
# folders: one (row, metric, value) per metric of each profiled launch. ncu's columns:
# 0 the launch's ID, 4 the kernel's name, 7 block, 8 grid, 12 the metric's name, 14 its
# value (with thousands separators). Lines that are not launches (the program's own
# output, ncu's ==PROF== lines) and values that are not numbers are skipped.
import csv


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
