#!/usr/bin/env bash
# Sets up, builds and runs the main example on the default device.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the example needs: libpacxx, the plugin, pacxx++ and pacxx-kernels, pacxx-info
# (pacxx-toolchain) and the example itself, not the ~200 test and benchmark programs
# that scripts/test.sh builds.
bash scripts/setup.sh pacxx-toolchain dot_product_program
./build/bin/pacxx-info
./build/examples/dot_product
