#!/usr/bin/env bash
# Prints ab.md: the A/B runs of this folder, each table by benchmarks/compare_runs.py from
# the JSON in ab/ (Google Benchmark, medians of 3 repetitions, min time 0.1 s; each column
# one process, in the order they ran). Each section ran on a freshly started machine (H100
# 80GB HBM3, driver 580.159.04). CUB (temporary storage preallocated) ran in the same
# processes.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
cmp="python3 $here/../../compare_runs.py"
a="$here/ab"
echo "# A/B runs (printed by ab.sh with benchmarks/compare_runs.py from ab/)"
echo
echo "## 1. release_cached_memory also giving back the calling thread's scratch (rel, a runtime built from the stash described in README.md) against main (3b30d6b)"
echo
echo "Filter \`^(sort_u32_(pacxx|cub|thrust)|sort_pairs_u32_(pacxx|cub))/\`: the u32 keys family, then the pairs family, as in the whole sort program. Ran in the order main_1, rel_1, rel_2, main_2."
echo
$cmp main_1=$a/placement/main_1.json rel_1=$a/placement/rel_1.json rel_2=$a/placement/rel_2.json main_2=$a/placement/main_2.json
echo
echo "## 2. The pairs' values loaded before the look-back (early) against main (3b30d6b)"
echo
echo "Filter \`^sort_pairs_u32_(pacxx|cub)/\`. Ran in the order main_1, early_1, early_2, main_2, main_3, early_3, early_4, main_4."
echo
$cmp main_1=$a/early-values/main_1.json early_1=$a/early-values/early_1.json early_2=$a/early-values/early_2.json main_2=$a/early-values/main_2.json main_3=$a/early-values/main_3.json early_3=$a/early-values/early_3.json early_4=$a/early-values/early_4.json main_4=$a/early-values/main_4.json
