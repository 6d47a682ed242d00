#!/usr/bin/env bash
# Prints ab.md: the A/B runs of this folder, each table by benchmarks/compare_runs.py
# from the JSON in ab/ (Google Benchmark, medians of 5 repetitions for the reductions, 3
# for the sorts; each column one process). Each numbered section ran on a freshly
# started machine (H100 80GB HBM3, driver 580.159.04).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
cmp="python3 $here/../../compare_runs.py"
a="$here/ab"
echo "# A/B runs (printed by ab.sh with benchmarks/compare_runs.py from ab/)"
echo
echo "Variants that share a process are separate benchmarks of one program (branch"
echo "wip/small-reductions-ab, benchmarks/reductions.cpp and sort.cpp there): minel_BxIxM"
echo "is min_element with B threads x I items at most M blocks (_plain: the pair folded as"
echo "one, without first_min_op's warp_reduce), count32 counts in 32 bits, any_poll_first"
echo "reads the early-stop word during the first tile, any_warp also folds the block's"
echo "result from its warps in shared memory. r1 and r2 are two processes."
echo
echo "## 1. Shapes of min_element, 32-bit counts, the first poll of the searches (first machine)"
echo
$cmp r1=$a/1-shapes/red_1.json r2=$a/1-shapes/red_2.json
echo
echo "## 2. The same with more shapes, and any_warp (second machine)"
echo
$cmp r1=$a/2-shapes/red_1.json r2=$a/2-shapes/red_2.json
echo
echo "## 3. The value-first warp fold (min_element_pacxx: 256 x 8 x 528 with it) against the pair folded as one (_plain) (third machine)"
echo
$cmp r1=$a/3-warpfold/red_1.json r2=$a/3-warpfold/red_2.json
echo
echo "## 4. 32-bit indices for min_element at every size (idx32) against fe25e0c (head) (fourth machine)"
echo
$cmp head_1=$a/4-idx32/head_1.json idx32_1=$a/4-idx32/idx32_1.json head_2=$a/4-idx32/head_2.json idx32_2=$a/4-idx32/idx32_2.json
echo
echo "## 5. u32 pairs, pacxx and CUB at every size in one process: main, or a runtime that gave the pool's unused blocks back on every miss of 256 MiB or more (rel) (fifth machine)"
echo
$cmp main_1=$a/5-release/main_1.json rel_1=$a/5-release/rel_1.json main_2=$a/5-release/main_2.json rel_2=$a/5-release/rel_2.json
echo
echo "## 6. u32 pairs at 2^27 alone after x MiB of device memory allocated first (pad_x), and at every size to 2^27 (all) or at 2^26 and 2^27 (top) (first machine)"
echo
$cmp pad_0=$a/1-shapes/pad/pad_0.json pad_2=$a/1-shapes/pad/pad_2.json pad_64=$a/1-shapes/pad/pad_64.json pad_256=$a/1-shapes/pad/pad_256.json pad_1024=$a/1-shapes/pad/pad_1024.json all=$a/1-shapes/pad/all.json top=$a/1-shapes/pad/top.json
echo
echo "## 7. u32 pairs, pacxx alone at every size to 2^27: PACXX_POOL_MB=1024 against the default pool (second machine)"
echo
$cmp pool1g=$a/2-shapes/pool1g.json default=$a/2-shapes/pooldef.json
echo
echo "## 8. Search shapes for any_of, threads x items at most blocks (any_256x16x264 is the shape of 307a9d6; any_of_pacxx the same through gpu::any_of) (sixth machine)"
echo
$cmp r1=$a/6-find-shapes/red_1.json r2=$a/6-find-shapes/red_2.json
