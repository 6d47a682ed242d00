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
reps=${PACXX_BENCH_REPS:-5}
export PACXX_BENCH_REPS=$reps
export PACXX_BENCH_DEVICE="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
common=(--benchmark_repetitions=$reps --benchmark_report_aggregates_only=true --benchmark_min_time=${PACXX_BENCH_MIN_TIME:-0.1})
"$bin/stl_vs_cuda" "${common[@]}" --benchmark_out="$out/stl_vs_cuda.json" --benchmark_out_format=json
PACXX_STAGING=0 "$bin/stl_vs_cuda" "${common[@]}" --benchmark_filter='^(dot|sum)_pacxx' \
  --benchmark_out="$out/staging_off.json" --benchmark_out_format=json
[ "${PACXX_BENCH_SKIP_JIT:-0}" = 1 ] || "$bin/jit_overhead" --benchmark_out="$out/jit_overhead.json" --benchmark_out_format=json
jit="$out/jit_overhead.json"; [ -f "$jit" ] || jit="${PACXX_BENCH_JIT_JSON:-}"
python3 "$here/report.py" "$out" "$out/stl_vs_cuda.json" "$out/staging_off.json" $jit
# The parallel STL (issues 9 and 10): each program that the package has, then its report.
stl_jsons=()
for prog in scan reductions compaction bykey sort; do
  [ -x "$bin/$prog" ] || continue
  "$bin/$prog" "${common[@]}" --benchmark_out="$out/$prog.json" --benchmark_out_format=json
  stl_jsons+=("$out/$prog.json")
done
[ ${#stl_jsons[@]} -eq 0 ] || python3 "$here/report_stl.py" "$out" "${stl_jsons[@]}"
