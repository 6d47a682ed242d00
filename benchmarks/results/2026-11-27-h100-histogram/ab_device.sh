#!/usr/bin/env bash
# Runs on the GPU machine: the histogram A/B of this folder. The policy variants are
# builds of benchmarks/bykey with pacxx::policy::histogram edited (README.md), carried in
# .device/variants/bykey_<variant>. Rounds of one process per variant, in turn, then the
# kernel durations of each variant under ncu; then the pages of the `--set full` reports
# of the first call, where .device/reps holds them (full_main_*.ncu-rep; the pages are in
# ncu/pages). Everything comes back as one file, all.tar.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
vs="${VARIANTS:-main b384 m264 b384m396}"
for r in $(seq 1 ${ROUNDS:-3}); do
  for v in $vs; do B=.device/variants/bykey_$v R=1 NCU=0 bash "$here/device.sh" ${v}_r$r; done
done
for v in $vs; do B=.device/variants/bykey_$v R=0 FULL=0 WHO=pacxx bash "$here/device.sh" ncu_$v; done
mkdir -p "$OUT/pages"
for f in $(ls .device/reps/*.ncu-rep 2>/dev/null); do
  n=$(basename "$f" .ncu-rep)
  ncu -i "$f" --page details --csv > "$OUT/pages/${n}_details.csv" 2>&1
  ncu -i "$f" --page source --print-source sass --csv 2>&1 | gzip > "$OUT/pages/${n}_sass.csv.gz"
done
# One file back (the device tool returns at most eight).
cd "$OUT" && tar -cf all.tar --remove-files *.tar.xz pages
