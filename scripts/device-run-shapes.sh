#!/usr/bin/env bash
# On the GPU machine (issue 35/37 session runs): unpacks .device/shapes.tar.xz, runs the
# gpu variants of the shapes, stencil, axis and graph tests, the shape examples, one
# sanitizer pass, then the shapes, launches and ROF benchmarks; everything under $OUT.
set -u
# A line on stderr at each step (the run takes many minutes and writes only to files).
start=$(date +%s)
progress() { echo "device-run-shapes: [$(date -u +%H:%M:%S), $(( $(date +%s) - start )) s] $*" >&2; }
root=$(pwd)
pkg=/tmp/pkg && rm -rf $pkg && mkdir -p $pkg && tar -C $pkg -xJf "$root/.device/shapes.tar.xz"
export LD_LIBRARY_PATH=$pkg/lib NCCL_NVLS_ENABLE=0
log=$OUT/logs && mkdir -p $log
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv > $log/machine.txt
for t in $(ls $pkg/tests/* | grep -E "${TESTS:-.}"); do
  n=$(basename $t); progress "test $n"
  PACXX_DEVICE=cuda PACXX_CACHE=0 timeout 300 $t > $log/$n.log 2>&1; echo "$n rc=$?" >> $log/summary.txt
done
for e in $(ls $pkg/bin/* | grep -E "${EXAMPLES:-.}"); do
  n=$(basename $e); [ "$n" = pacxx-info ] && continue
  progress "example $n"
  PACXX_DEVICE=cuda PACXX_CACHE=0 timeout 120 $e >> $log/examples.log 2>&1; echo "$n rc=$?" >> $log/summary.txt
done
for t in ${SANITIZE:-}; do
  progress "memcheck $t"
  PACXX_DEVICE=cuda PACXX_CACHE=0 timeout 300 compute-sanitizer --tool memcheck $pkg/tests/$t > $log/memcheck_$t.log 2>&1
  echo "memcheck $t rc=$? $(grep -c 'ERROR SUMMARY: 0' $log/memcheck_$t.log)" >> $log/summary.txt
done
cd $pkg
for prog in ${BENCH:-}; do
  progress "benchmark $prog"
  case $prog in
    launches|gemm) PACXX_BENCH_ONLY=$prog ./gpu-bench.sh $OUT/bench > $log/bench_$prog.txt 2>&1 ;;
    rof) LD_LIBRARY_PATH=$pkg/lib PACXX_POOL_MB=0 ./benchmarks/rof_benchmark --benchmark_filter='rof_(pacxx|pacxxgraph|cuda)/(1024|4096)' \
           --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
           --benchmark_out=$OUT/bench/rof.json --benchmark_out_format=json > $log/bench_rof.txt 2>&1 ;;
    *) PACXX_BENCH_ONLY=stl PACXX_BENCH_PROGS=$prog PACXX_BENCH_REPS=${REPS:-3} ./gpu-bench.sh $OUT/bench > $log/bench_$prog.txt 2>&1 ;;
  esac
done
progress "done: $OUT"
cd $OUT && tar -cJf $OUT/all.tar.xz logs bench 2>/dev/null; ls -la $OUT
