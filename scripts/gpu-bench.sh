#!/usr/bin/env bash
# On a machine with a CUDA GPU: runs the benchmark programs of the package (or of
# build/) and writes the results (JSON, README.md with tables, PNG plots) to $1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?results directory}"
bin="$here/benchmarks"; [ -d "$bin" ] || bin="$here/../build/benchmarks"
export LD_LIBRARY_PATH="$here/lib:${LD_LIBRARY_PATH:-}"
export PACXX_DEVICE=cuda PACXX_CACHE=0
mkdir -p "$out"
# Progress on stderr: a full run outlasts a device call (the sort program alone took about
# 510 s on the H100), and Google Benchmark prints a benchmark only when all its
# repetitions are done (a 2^28 sort takes seconds before it).
start=$(date +%s)
progress() { echo "gpu-bench: [$(date -u +%H:%M:%S), $(( $(date +%s) - start )) s] $*" >&2; }
reps=${PACXX_BENCH_REPS:-5}
export PACXX_BENCH_REPS=$reps
export PACXX_BENCH_DEVICE="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
# PACXX_BENCH_ONLY=rof runs only the ROF part (issue 11) below; PACXX_BENCH_ONLY=sort
# only the sorting program (issue 10) and its report; PACXX_BENCH_ONLY=queues only the
# queues and futures part (issue 12); PACXX_BENCH_ONLY=stl only the parallel-STL
# programs named in PACXX_BENCH_PROGS (default: all of them) and their report;
# PACXX_BENCH_ONLY=cuda only stl_vs_cuda, staging on/off and the JIT overhead (report.py);
# PACXX_BENCH_ONLY=gemm only gemm and gemv against cuBLAS (issue 36).
only="${PACXX_BENCH_ONLY:-}"
progs="${PACXX_BENCH_PROGS:-scan reductions compaction bykey sort segmented thrust_parity random}"
common=(--benchmark_repetitions=$reps --benchmark_report_aggregates_only=true --benchmark_min_time=${PACXX_BENCH_MIN_TIME:-0.1})
# PACXX_BENCH_ONLY=launches: only the launch-cost program (issue 37: direct, captured
# and replayed, raw CUDA launches and a raw CUDA graph; fixed-point loops), its JSON.
if [ "$only" = launches ]; then
  progress "launches"
  "$bin/launches" "${common[@]}" --benchmark_enable_random_interleaving=true \
    --benchmark_out="$out/launches.json" --benchmark_out_format=json
  progress "done: $out"
  exit 0
fi
if [ "$only" = sort ]; then
  progress "sort${PACXX_BENCH_FILTER:+ (filter $PACXX_BENCH_FILTER)}"
  # PACXX_BENCH_FILTER applies here too (e.g. '^sort_pairs_u32_' for one family).
  "$bin/sort" "${common[@]}" ${PACXX_BENCH_FILTER:+--benchmark_filter="$PACXX_BENCH_FILTER"} \
    --benchmark_out="$out/sort.json" --benchmark_out_format=json
  python3 "$here/report_stl.py" "$out" "$out/sort.json"
elif [ "$only" != rof ] && [ "$only" != queues ] && [ "$only" != gemm ]; then
if [ "$only" != stl ]; then
progress "stl_vs_cuda"
"$bin/stl_vs_cuda" "${common[@]}" --benchmark_out="$out/stl_vs_cuda.json" --benchmark_out_format=json
# Multi-staging on and off: processes that alternate, three of each (a process can hold
# one mode of small-call times throughout; see report.py).
for r in 1 2 3; do
  for staging in 1 0; do
    progress "staging on/off: process $r of 3 with PACXX_STAGING=$staging"
    PACXX_STAGING=$staging "$bin/stl_vs_cuda" "${common[@]}" --benchmark_filter='^(dot|sum)_pacxx/' \
      --benchmark_enable_random_interleaving=true \
      --benchmark_out="$out/staging_$staging.$r.json" --benchmark_out_format=json
  done
done
[ "${PACXX_BENCH_SKIP_JIT:-0}" = 1 ] || progress "jit_overhead"
[ "${PACXX_BENCH_SKIP_JIT:-0}" = 1 ] || "$bin/jit_overhead" --benchmark_out="$out/jit_overhead.json" --benchmark_out_format=json
jit="$out/jit_overhead.json"; [ -f "$jit" ] || jit="${PACXX_BENCH_JIT_JSON:-}"
python3 "$here/report.py" "$out" "$out/stl_vs_cuda.json" ${jit:+--jit "$jit"} \
  --staging-on "$out"/staging_1.*.json --staging-off "$out"/staging_0.*.json
fi
if [ "$only" != cuda ]; then
# The parallel STL (issues 9 and 10): each program that the package has, then its report.
# Repetitions interleaved at random, except for sort, which keeps one data set of up to
# 2^28 elements alive at a time: small sizes were bimodal on the H100 (about 14.5 or
# 20.5 us a call, the mode held for hundreds of calls), and interleaving spreads the
# modes over every benchmark's repetitions (benchmarks/results/2026-11-25-h100-reductions, in git history).
stl_jsons=()
for prog in $progs; do
  [ -x "$bin/$prog" ] || continue
  interleave=(--benchmark_enable_random_interleaving=true)
  [ "$prog" = sort ] && interleave=()
  progress "$prog${PACXX_BENCH_FILTER:+ (filter $PACXX_BENCH_FILTER)}"
  # PACXX_BENCH_FILTER: only the benchmarks it matches (a regex of Google Benchmark's
  # --benchmark_filter), e.g. the radix sorts without the comparator sort and merge.
  "$bin/$prog" "${common[@]}" "${interleave[@]}" ${PACXX_BENCH_FILTER:+--benchmark_filter="$PACXX_BENCH_FILTER"} \
    --benchmark_out="$out/$prog.json" --benchmark_out_format=json
  stl_jsons+=("$out/$prog.json")
done
[ ${#stl_jsons[@]} -eq 0 ] || python3 "$here/report_stl.py" "$out" "${stl_jsons[@]}"
fi
fi

# ROF denoising (issue 11): the CPU-reference test at 2048^2 on this GPU, the benchmark
# (pool off, so that device memory is measured), the example on the photograph at
# 2048^2 (its log: energy and residual every 10 iterations; the images for the
# before/after figure stay outside the results), then the report.
# Queues and device futures (issue 12): the overlap pipeline and the device-resident
# chain (queues), Listing 7's gpu::async saxpy against Thrust (stl_vs_cuda), the report.
if [ -x "$bin/queues" ] && { [ -z "$only" ] || [ "$only" = queues ]; }; then
  progress "queues, then saxpy_async"
  "$bin/queues" "${common[@]}" --benchmark_out="$out/queues.json" --benchmark_out_format=json
  "$bin/stl_vs_cuda" "${common[@]}" --benchmark_filter='^saxpy_(pacxx_async|pacxx_transform|thrust)/' \
    --benchmark_out="$out/saxpy_async.json" --benchmark_out_format=json
  python3 "$here/report_queues.py" "$out" "$out/queues.json" "$out/saxpy_async.json"
fi

if [ -x "$bin/rof_benchmark" ] && { [ -z "$only" ] || [ "$only" = rof ]; }; then
  tests="$here/tests"; [ -d "$tests" ] || tests="$here/../build/tests/e2e"
  examples="$here/bin"; [ -x "$examples/rof" ] || examples="$here/../build/examples"
  photo="$here/data/camera.png"; [ -f "$photo" ] || photo="$(bash "$here/rof-photo.sh")"
  progress "rof: rof_test at 2048^2, rof_benchmark, the example on the photograph"
  ROF_TEST_SIZE=2048 "$tests/rof_test" > "$out/rof_test_2048.log" 2>&1 || echo "FAILED: rof_test at 2048^2 (see rof_test_2048.log)"
  tail -3 "$out/rof_test_2048.log"
  PACXX_POOL_MB=0 "$bin/rof_benchmark" "${common[@]}" --benchmark_out="$out/rof.json" --benchmark_out_format=json
  images=$(mktemp -d)
  "$examples/rof" --input "$photo" --size 2048 --iterations 300 --every 10 \
    --noisy "$images/noisy.png" --output "$images/denoised.png" | tee "$out/rof_photo_2048.log"
  python3 "$here/report_rof.py" "$out" "$out/rof.json" "$out/rof_photo_2048.log" \
    "$out/rof_test_2048.log" "$images/noisy.png" "$images/denoised.png"
  rm -rf "$images"
fi

# gemm and gemv against cuBLAS (issue 36): Google Benchmark's table (gemm.txt, TFLOP/s
# and bytes/s counters) and JSON; no report script yet.
if [ -x "$bin/gemm" ] && { [ -z "$only" ] || [ "$only" = gemm ]; }; then
  progress "gemm"
  "$bin/gemm" "${common[@]}" ${PACXX_BENCH_FILTER:+--benchmark_filter="$PACXX_BENCH_FILTER"} \
    --benchmark_out="$out/gemm.json" --benchmark_out_format=json | tee "$out/gemm.txt"
fi
progress "done: $out"
