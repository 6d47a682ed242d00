#!/usr/bin/env bash
# On a machine with 2 or 4 GPUs, from the unpacked package (scripts/device-package.sh):
# gpu::dist (issue 39) under mpirun, one process per GPU, with NCCL and without it
# (PACXX_NCCL=0: host-staged): the test program, the Jacobi example, distributed ROF
# (examples/rof/rof_dist.cpp, checked against the single-process solver) and, with
# BENCH=1, benchmarks/dist (weak scaling, halo vs raw NCCL, scalar all-reduce, ROF strong
# scaling at 4096^2 and 8192^2) as $OUT/dist-np<N>-<nccl|staged>.json, tabled by
# report_dist.py into $OUT/dist.md.
#
#   PACXX_NCCL=/path/to/libnccl.so.2 bash gpu-dist.sh      # NCCL's path if not on the loader's
#   MPIRUN=/path/to/mpirun BENCH=1 OUT=/tmp/dist bash gpu-dist.sh
#   ROF_ONLY=1 BENCH=1 OUT=/tmp/dist bash gpu-dist.sh       # distributed ROF and its strong
#                                                            # scaling only (no dist_test, Jacobi)
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PACXX_DEVICE # each rank takes its local rank's GPU
mpirun="${MPIRUN:-mpirun}"
out="${OUT:-/tmp}"
nccl="${PACXX_NCCL:-libnccl.so.2}"
gpus=$(nvidia-smi -L | grep -c '^GPU')
status=0
filter=
[ "${ROF_ONLY:-0}" = 1 ] && filter=--benchmark_filter=rof
run() { # label np nccl program args...
  local label=$1 np=$2 lib=$3; shift 3
  if "$mpirun" --bind-to none -np "$np" -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x PACXX_NCCL="$lib" \
       -x PACXX_CACHE=0 "$@" > "$out/dist-$label.log" 2>&1; then r=PASS; else r=FAIL; status=1; fi
  echo "$r $label ($(grep -E '^\[  (PASSED|FAILED)  \]|jacobi:|transport|rof_dist: [0-9]|compare with' "$out/dist-$label.log" | tr '\n' ' '))" |
    tee -a "$out/dist-summary.log"
}
for np in 1 2 4; do
  [ "$np" -le "$gpus" ] || continue
  for mode in nccl staged; do
    lib="$nccl"; [ $mode = staged ] && lib=0
    if [ "${ROF_ONLY:-0}" != 1 ]; then
      run "test-np$np-$mode" "$np" "$lib" "$here/dist/dist_test"
      run "jacobi-np$np-$mode" "$np" "$lib" "$here/dist/jacobi_dist" 2048 2048 200 # checked against the host up to 2^22 points
    fi
    # ROF by rows against the single-process solver on rank 0 (1001 rows: uneven on 2 and
    # 4 ranks), then its time per iteration at 4096^2 without a check.
    run "rof-np$np-$mode" "$np" "$lib" "$here/dist/rof_dist" --synthetic 1024x1001 \
      --iterations 100 --every 50 --compare --tolerance 1e-5
    run "rof4096-np$np-$mode" "$np" "$lib" "$here/dist/rof_dist" --synthetic 4096 --iterations 200
    if [ "${BENCH:-0}" = 1 ]; then
      "$mpirun" --bind-to none -np "$np" -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x PACXX_NCCL="$lib" \
        "$here/dist/dist" $filter --benchmark_out="$out/dist-np$np-$mode.json" \
        --benchmark_out_format=json 2>&1 | tee "$out/dist-bench-np$np-$mode.log"
    fi
  done
done
# The tables and goals (weak scaling, halo, all-reduce, ROF strong scaling).
if [ "${BENCH:-0}" = 1 ] && [ -f "$here/report_dist.py" ]; then
  python3 "$here/report_dist.py" "$out" && cat "$out/dist.md"
fi
exit $status
