#!/usr/bin/env bash
# Sets up, builds and runs the main example on the default device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/bin/pacxx-info
./build/examples/dot_product
