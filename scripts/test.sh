#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite. Tests labelled gpu skip (with the
# reason) where there is no CUDA GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
# Warnings are errors in the test run (CI runs this script through .ci/run).
PACXX_WERROR=ON bash scripts/setup.sh
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 600
