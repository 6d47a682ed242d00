#!/usr/bin/env bash
# Packs what the GPU machine needs into .device/pacxx.tar.xz: libpacxx (LLVM inside),
# the tools, the example and the end-to-end test programs, plus gpu-run.sh to run them.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(mktemp -d)
mkdir -p "$stage"/{lib,bin,tests}
strip -o "$stage/lib/libpacxx.so" build/lib/libpacxx.so
cp build/bin/pacxx-info build/bin/pacxx-kernels build/examples/saxpy "$stage/bin/"
for t in build/tests/e2e/*_test; do [ -x "$t" ] && cp "$t" "$stage/tests/"; done
cp scripts/gpu-run.sh "$stage/"
mkdir -p .device
tar -C "$stage" -cJf .device/pacxx.tar.xz .
rm -rf "$stage"
ls -la .device/pacxx.tar.xz
