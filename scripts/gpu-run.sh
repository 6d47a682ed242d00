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
  for e in dot_product saxpy_async transform_kernel reduce_staged canny_example fluids_example; do
    [ -x "$here/bin/$e" ] && { echo "== $e"; PACXX_CACHE=0 "$here/bin/$e" || echo "FAILED: $e"; }
  done
} 2>&1 | tee "$out/gpu-info.log"
status=0
# PACXX_GPU_RUN_FROM=NAME starts at the test program NAME (in name order): the rest of a
# run that a device call's time limit cut short.
for t in "$here"/tests/*_test; do
  name=$(basename "$t")
  [[ "$name" < "${PACXX_GPU_RUN_FROM:-}" ]] && continue
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
# The environments the ctest registrations give some programs (tests/e2e/CMakeLists.txt).
extra() { # name env... -- args...
  local name=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  local t="$here/tests/${name%% *}"
  [ -x "$t" ] || return 0
  if env PACXX_DEVICE=cuda PACXX_CACHE=0 "${envs[@]}" "$t" "$@" >> "$out/gpu-tests.log" 2>&1; then r=PASS; else r=FAIL; status=1; fi
  echo "$r $name with ${envs[*]} $*" | tee -a "$out/gpu-summary.log"
}
extra soak_test PACXX_POOL_MB=8 --
extra kernel_variants_test PACXX_KERNEL_VARIANTS=8 --
extra kernel_variants_test PACXX_TEST_DISTINCT_VALUES=2000 -- \
  --gtest_filter=KernelVariants.ManyStagedValuesAreRightAndAtMostTheBoundStayLoaded
if [ -x "$here/tests/static_lifetime_test" ]; then
  o=$(PACXX_DEVICE=cuda PACXX_CACHE=0 "$here/tests/static_lifetime_test" 2>&1); rc=$?
  if [ $rc = 0 ] && grep -q "after the runtime: clean" <<<"$o"; then r=PASS; else r=FAIL; status=1; fi
  echo "$r static_lifetime_test (exit status and output)" | tee -a "$out/gpu-summary.log"
fi
exit $status
