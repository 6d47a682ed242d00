#!/usr/bin/env bash
# On the GPU machine, from the unpacked package (scripts/device-package.sh): every
# end-to-end test on CUDA under NVIDIA's compute-sanitizer, memcheck (out-of-bounds and
# misaligned device accesses, with the memory pool off so that a use of freed device
# memory is caught too) and racecheck (shared-memory hazards). Logs to $OUT:
# gpu-sanitize.log (everything) and gpu-sanitize-summary.log (a line per run).
#   gpu-sanitize.sh [TOOLS]   TOOLS: comma-separated, default memcheck,racecheck
set -u
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="$here/lib"
out="${OUT:-/tmp}"
tools="${1:-memcheck,racecheck}"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "gpu-sanitize: compute-sanitizer not found" | tee "$out/gpu-sanitize-summary.log"; exit 1; }
"$cs" --version | head -2 | tee "$out/gpu-sanitize-summary.log"
status=0
run_one() { # tool test
  local tool=$1 t=$2 name log r
  name=$(basename "$t")
  log="$out/sanitize-$tool-$name.tmp"
  # --error-exitcode: any hazard or access error fails the run even if the test passes.
  # --report-api-errors no: pacxx checks every driver call and turns a failure into a
  # pacxx::error that the tests see; errors_test provokes an out-of-memory on purpose.
  if PACXX_DEVICE=cuda PACXX_CACHE=0 PACXX_POOL_MB=0 timeout 540 "$cs" --tool "$tool" \
       --report-api-errors no --error-exitcode 99 --print-limit 20 "$t" > "$log" 2>&1; then
    r=CLEAN
  else
    r="FAIL($?)"
  fi
  { echo "===== $tool $name: $r"; cat "$log"; } >> "$out/gpu-sanitize.log"
  echo "$r $tool $name $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tr '\n' ' ')" >> "$out/gpu-sanitize-summary.log"
  rm -f "$log"
}
export -f run_one
export out cs
for tool in ${tools//,/ }; do
  # Four programs at a time on the one GPU: each is small, the sanitizer is the cost.
  ls "$here"/tests/*_test | xargs -P 4 -I{} bash -c "run_one $tool {}"
done
grep -q "^FAIL" "$out/gpu-sanitize-summary.log" && status=1
cat "$out/gpu-sanitize-summary.log"
exit $status
