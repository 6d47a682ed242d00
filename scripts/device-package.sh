#!/usr/bin/env bash
# Packs what the GPU machine needs into .device/pacxx.tar.xz: libpacxx (LLVM inside),
# the tools, the example and the end-to-end test programs, plus gpu-run.sh to run them.
set -euo pipefail
cd "$(dirname "$0")/.."
# The benchmarks are not in `all` (CMakeLists.txt); PACXX_PACKAGE_BENCHMARKS=0 packs
# without building them (a tests-only package for gpu-run.sh).
if [ "${PACXX_PACKAGE_BENCHMARKS:-1}" != 0 ]; then
  cmake --build build -j "$(nproc)" --target benchmarks/all
fi
stage=$(mktemp -d)
mkdir -p "$stage"/{lib,bin,tests}
strip -o "$stage/lib/libpacxx.so" build/lib/libpacxx.so
cp build/bin/pacxx-info build/bin/pacxx-kernels build/examples/saxpy "$stage/bin/"
for t in build/tests/e2e/*_test; do [ -x "$t" ] && cp "$t" "$stage/tests/"; done
cp scripts/gpu-run.sh scripts/gpu-bench.sh scripts/gpu-sanitize.sh benchmarks/report.py benchmarks/report_stl.py \
   benchmarks/report_rof.py benchmarks/report_queues.py scripts/rof-photo.sh "$stage/"
if [ -x build/benchmarks/stl_vs_cuda ] || [ -x build/benchmarks/rof_benchmark ] ||
   [ -x build/benchmarks/sort ]; then
  mkdir -p "$stage/benchmarks"
  # Every benchmark program (the executables in build/benchmarks; no extension).
  for b in build/benchmarks/*; do
    [ -f "$b" ] && [ -x "$b" ] && [[ "$(basename "$b")" != *.* ]] && cp "$b" "$stage/benchmarks/"
  done
  cp -L /usr/lib/x86_64-linux-gnu/libbenchmark.so.1debian "$stage/lib/" # not on the GPU machine
fi
# gpu::dist (issue 39): its library, test, example and benchmark, run by gpu-dist.sh
# under mpirun (a folder of their own: gpu-run.sh runs tests/* without mpirun).
if [ -x build/tests/dist/dist_test ]; then
  mkdir -p "$stage/dist"
  strip -o "$stage/lib/libpacxx_dist.so" build/lib/libpacxx_dist.so
  for p in build/tests/dist/dist_test build/examples/jacobi_dist build/examples/rof_dist \
           build/benchmarks/dist; do
    [ -x "$p" ] && cp "$p" "$stage/dist/"
  done
  cp scripts/gpu-dist.sh benchmarks/report_dist.py "$stage/"
fi
for e in dot_product saxpy_async transform_kernel reduce_staged rof thrust_interop canny_example fluids_example; do
  [ -x build/examples/$e ] && cp build/examples/$e "$stage/bin/"
done
# The ROF example (issue 11): its image libraries, which the GPU machine may lack, and
# the photograph it denoises there (from a Debian package, scripts/rof-photo.sh).
if [ -x build/examples/rof ] || [ -x build/examples/rof_dist ]; then
  for l in libnetpbm.so.11 libpng16.so.16; do cp -L /usr/lib/x86_64-linux-gnu/$l "$stage/lib/"; done
  mkdir -p "$stage/data"
  cp "$(bash scripts/rof-photo.sh)" "$stage/data/camera.png"
fi
mkdir -p .device
tar -C "$stage" -cJf .device/pacxx.tar.xz .
rm -rf "$stage"
ls -la .device/pacxx.tar.xz
