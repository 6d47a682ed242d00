#!/usr/bin/env bash
# Prints ab.md: the A/B runs of this folder, each table by benchmarks/compare_runs.py
# from the JSON in ab/ (one Google Benchmark process per column, 3 repetitions, medians).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
cmp="python3 $here/../../compare_runs.py"
a="$here/ab"
echo "# A/B runs (printed by ab.sh with benchmarks/compare_runs.py from ab/)"
echo
echo "## 1. Searches: last block (main) or one result per block from block_reduce (find2); reductions, two rounds (first machine)"
echo
$cmp main_1=$a/1-find2/main_1.json find2_1=$a/1-find2/find2_1.json main_2=$a/1-find2/main_2.json find2_2=$a/1-find2/find2_2.json --filter 'any_of_pacxx|sum_pacxx'
echo
echo "## 2. Radix pairs pass shapes, block x items at min blocks (same machine as 1; two rounds)"
echo
args=""
for v in main b384x14m3 b256x16m4 b256x20m3 b512x12m2; do for r in 1 2; do args="$args ${v}_$r=$a/1-pairs-shapes/${v}_$r.json"; done; done
$cmp $args
echo
echo "## 3. Radix pairs, 384 threads at 2 blocks: 16 (main, twice), 17, 18, 19 items (second machine)"
echo
$cmp main=$a/2-pairs-items/main.json b384x17m2=$a/2-pairs-items/b384x17m2.json b384x18m2=$a/2-pairs-items/b384x18m2.json b384x19m2=$a/2-pairs-items/b384x19m2.json main2=$a/2-pairs-items/main2.json
echo
echo "## 4. Reductions: a balanced tree of folds over a tile's loads (tree) or a chain (main); two rounds (third machine)"
echo
$cmp main_1=$a/3-tree/main_1.json tree_1=$a/3-tree/tree_1.json main_2=$a/3-tree/main_2.json tree_2=$a/3-tree/tree_2.json
echo
echo "## 5. Searches: main, find2 (as in 1), find3 (each block's thread 0 reads the word after a barrier; taken); two rounds (fourth machine)"
echo
$cmp main_1=$a/4-find3/main_1.json find2_1=$a/4-find3/find2_1.json find3_1=$a/4-find3/find3_1.json main_2=$a/4-find3/main_2.json find2_2=$a/4-find3/find2_2.json find3_2=$a/4-find3/find3_2.json
echo
echo "## 6. Radix pairs (final code): every size in one process (all) or from 2^26 up (top); two rounds (fifth machine)"
echo
$cmp all_1=$a/5-history/all_1.json top_1=$a/5-history/top_1.json all_2=$a/5-history/all_2.json top_2=$a/5-history/top_2.json
echo
echo "## 7. Rank counters in the stage (u: CUB's union, CUDA; branch wip/radix-rank-union) at 384 x 17 / 19 / 21 / 23, 2 blocks, against 264edd4 (main17); two rounds (seventh machine; the sixth ran the ncu of ncu.md's second table)"
echo
args=""
for r in 1 2; do for v in main17 u17 u19 u21 u23; do args="$args ${v}_$r=$a/6-union/${v}_$r.json"; done; done
$cmp $args
echo
echo "## 8. min_element with 32-bit indices where n < 2^32 (idx32: 8-byte partials for floats) against edfd157 (head); two rounds (eighth machine)"
echo
$cmp head_1=$a/7-idx32/head_1.json idx32_1=$a/7-idx32/idx32_1.json head_2=$a/7-idx32/head_2.json idx32_2=$a/7-idx32/idx32_2.json
