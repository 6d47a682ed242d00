#!/usr/bin/env bash
# On the GPU machine, from the unpacked package: shows the program needs only the
# driver, then runs the example and every end-to-end test on CUDA, logging to $OUT.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="$here/lib"
out="${OUT:-/tmp}"
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  echo "== dependencies of a pacxx program (no LLVM, no CUDA runtime)"; ldd "$here/bin/saxpy"
  echo "== pacxx-info"; "$here/bin/pacxx-info"
  echo "== saxpy (default device)"; PACXX_TRACE=1 "$here/bin/saxpy"
  for e in dot_product saxpy_async transform_kernel reduce_staged; do
    [ -x "$here/bin/$e" ] && { echo "== $e"; PACXX_CACHE=0 "$here/bin/$e" || echo "FAILED: $e"; }
  done
} 2>&1 | tee "$out/gpu-info.log"
status=0
for t in "$here"/tests/*_test; do
  name=$(basename "$t")
  log="$out/$name.log.tmp"
  if PACXX_DEVICE=cuda PACXX_CACHE=0 PACXX_DUMP_DIR="/tmp/dump-$name" "$t" > "$log" 2>&1; then r=PASS; else r=FAIL; status=1; fi
  { echo "===== $name: $r"; cat "$log"; } >> "$out/gpu-tests.log"
  echo "$r $name ($(grep -E '^\[  (PASSED|FAILED)  \]' "$log" | tr '\n' ' '))" | tee -a "$out/gpu-summary.log"
  rm -f "$log"
done
# The memory pool off and at 1 MB, as CI runs them on OpenCL.
for mb in 0 1; do
  t="$here/tests/memory_pool_test"
  [ -x "$t" ] || continue
  if PACXX_DEVICE=cuda PACXX_CACHE=0 PACXX_POOL_MB=$mb "$t" >> "$out/gpu-tests.log" 2>&1; then r=PASS; else r=FAIL; status=1; fi
  echo "$r memory_pool_test with PACXX_POOL_MB=$mb" | tee -a "$out/gpu-summary.log"
done
exit $status
