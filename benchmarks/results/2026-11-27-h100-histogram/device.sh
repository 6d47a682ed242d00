#!/usr/bin/env bash
# Runs on the GPU machine, from the package unpacked at /tmp/p (scripts/device-package.sh),
# writing under $OUT: the histogram evidence of this folder's README.
#   runs/<tag>_<r>.json: bykey's histograms (pacxx, CUB) at 2^20-2^22, 10 repetitions
#     interleaved at random, three processes;
#   ncu/m_<data>_<who>_<n>.csv: kernel durations of 20 launches (ncu --metrics);
#   ncu/full_<who>.ncu-rep: `--set full` of skewed 2^21 (pacxx: its fill and histogram
#     launches; CUB: its init and sweep kernels).
# Arguments: the tag of the files; environment: B, the program (default the package's
# bykey; a variant's build for the A/B runs), R processes (3), NCU=0 / FULL=0 to skip the
# profiles, WHO (pacxx cub) the sides profiled, FILTER (the benchmarks run), REPS (10)
# and NCU_SIZES (2^20-2^22) the sizes profiled.
set -u
tag=${1:-main}
p=/tmp/p
export LD_LIBRARY_PATH=$p/lib PACXX_DEVICE=cuda PACXX_CACHE=0
b=${B:-$p/benchmarks/bykey}
mkdir -p "$OUT/runs" "$OUT/ncu"
trap 'tar -C "$OUT" -cJf "$OUT/$tag.tar.xz" runs ncu && rm -rf "$OUT/runs" "$OUT/ncu"' EXIT
F=${FILTER:-'^histogram_(skewed|uniform)_(pacxx|cub)/(1048576|2097152|4194304)/'}
for r in $(seq 1 ${R:-3}); do
  $b --benchmark_filter="$F" --benchmark_repetitions=${REPS:-10} --benchmark_enable_random_interleaving=true \
    --benchmark_min_time=0.1 --benchmark_out="$OUT/runs/${tag}_$r.json" --benchmark_out_format=json \
    > "$OUT/runs/${tag}_$r.log" 2>&1
done
[ "${NCU:-1}" = 1 ] || exit 0
m=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
for s in ${NCU_SIZES:-1048576 2097152 4194304}; do
  for k in skewed uniform; do
    for w in ${WHO:-pacxx cub}; do
      ncu --cache-control none --clock-control none --metrics $m --csv --launch-skip 10 --launch-count 20 \
        $b --benchmark_filter="^histogram_${k}_${w}/$s/" --benchmark_min_time=0.01 \
        > "$OUT/ncu/m_${tag}_${k}_${w}_$s.csv" 2>&1
    done
  done
done
[ "${FULL:-1}" = 1 ] || exit 0
ncu --set full --import-source no --cache-control none --clock-control none --launch-skip 10 \
  --launch-count 2 -o "$OUT/ncu/full_${tag}_pacxx" \
  $b --benchmark_filter='^histogram_skewed_pacxx/2097152/' --benchmark_min_time=0.01 > "$OUT/ncu/full_${tag}_pacxx.log" 2>&1
ncu --set full --import-source no --cache-control none --clock-control none --launch-skip 10 \
  --launch-count 2 -o "$OUT/ncu/full_${tag}_cub" \
  $b --benchmark_filter='^histogram_skewed_cub/2097152/' --benchmark_min_time=0.01 > "$OUT/ncu/full_${tag}_cub.log" 2>&1
