#!/bin/bash
# First-run (JIT) cost of a program built by pacxx++ (issue 37), on the device that
# PACXX_DEVICE selects (default: the first CUDA device, else OpenCL):
#   benchmarks/cold_start.sh PROGRAM [THREADS] [ARGS...]
# Runs PROGRAM (e.g. build/tests/e2e/stl_algorithms_test) with ARGS five ways and prints
# the wall time of each and, from PACXX_TRACE, the kernels compiled and their summed JIT
# time (cold cost per kernel = that sum / kernels):
#   cold        PACXX_CACHE=0: every kernel JIT-compiled at its first launch, one at a time
#   prefetch    PACXX_CACHE=0 PACXX_PREFETCH=THREADS: kernels without staged values
#               compiled on THREADS threads (default: one per core) at the first launch
#   prefill     PACXX_PREFILL=1 into an empty disk cache (ends at the first launch)
#   after       the run after the prefill: kernels from the disk cache
#   warm        a second run on the same cache
# With a prefetch the first launch's "compiled in" time is the whole prefetch, which has
# its own line ("pacxx: prefetch of N kernels ... in T ms").
# The cache directory is a fresh temporary one, removed at the end; PoCL's own kernel
# cache is off (POCL_KERNEL_CACHE=0), as it would hide its part of a first run.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [THREADS] [ARGS...]" >&2; exit 2; }
program=$1
shift
threads=${1:-0}
[ $# -ge 1 ] && shift
args=("$@")
[ "$threads" = 0 ] && threads=$(nproc)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

run() { # name, then environment assignments
  local name=$1
  shift
  local start end
  start=$(date +%s%N)
  env PACXX_TRACE=1 PACXX_CACHE_DIR="$dir/cache" POCL_KERNEL_CACHE=0 "$@" "$program" "${args[@]}" > "$dir/out" 2>&1 || true
  end=$(date +%s%N)
  # A compilation's trace line says "compiled in <ms> ms"; a disk hit "from disk cache in".
  local jit disk
  jit=$(grep -o 'compiled in [0-9.]* ms' "$dir/out" |
        awk '{ n++; s += $3 } END { printf "%d kernels compiled, %.0f ms of JIT", n, s }')
  disk=$(grep -c 'from disk cache in' "$dir/out" || true)
  printf '%-9s %8.2f s  %s, %s from the disk cache\n' "$name" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { print (b - a) / 1e9 }')" "$jit" "$disk"
  grep -h 'PACXX_PREFILL:\|pacxx: prefetch of' "$dir/out" || true
}

run cold PACXX_CACHE=0
run prefetch PACXX_CACHE=0 PACXX_PREFETCH="$threads"
run prefill PACXX_CACHE=1 PACXX_PREFILL=1 PACXX_PREFETCH="$threads"
run after PACXX_CACHE=1
run warm PACXX_CACHE=1
