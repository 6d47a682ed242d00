#!/usr/bin/env bash
# Compiles every kernel of a pacxx program to PTX (as the CUDA backend would for an
# sm_90 device) and has ptxas validate it for sm_90.
set -eu
kernels_tool="$1" program="$2" dir="$3" ptxas="${4:-}"
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
  echo "SKIPPED: ptxas not found (CUDA toolkit missing at configure time)"
  exit 77
fi
rm -rf "$dir" && mkdir -p "$dir"
# --no-unroll: the kernels as the OpenCL tests run them (PACXX_UNROLL=0, CMakeLists.txt).
# The lowering with its loops unrolled took a third longer (stl_thrust_sets_test: 30 s
# against 20, 2026-11-28) and 1.7x the PTX; with the other PoCL savings CI's tests still
# took 31.5 minutes. The unrolled PTX, the one a CUDA device loads, is checked by the
# gpu-labelled tests on the GPU machine (scripts/gpu-run.sh: the driver compiles it).
files=$("$kernels_tool" --ptx "$dir" --arch sm_90 --no-unroll "$program")
[ -n "$files" ] || { echo "no kernels found in $program"; exit 1; }
# -O0: still a full sm_90 compile (unlike -arch=compute_90, which only parses and passed
# PTX with 300 KB of static shared memory or a call to an undefined function; -O0 and
# -O3 rejected both, and the same syntax, operand-type and parameter-space errors).
# Measured 2026-11-27 on the 2-core CI-like machine: stl_sort_test's 143 kernels took
# 26.0 s at the default -O3 and 21.5 s at -O0. One ptxas per file: ptxas links several
# inputs into one program, and every kernel is named pacxx_kernel.
for f in $files; do
  "$ptxas" -O0 -arch=sm_90 "$f" -o "${f%.ptx}.cubin"
  echo "ptxas ok: $f ($(head -1 "$f"))"
done
