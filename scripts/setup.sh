#!/usr/bin/env bash
# Installs what pacxx needs on Debian 12 (as root) and configures + builds it in build/.
#
#   bash scripts/setup.sh              # builds everything (tests, benchmarks, examples)
#   bash scripts/setup.sh TARGET...    # builds only these ninja targets (scripts/example.sh)
# The CUDA toolkit is not a Debian package: when /usr/local/cuda exists, libdevice is
# embedded for CUDA math and ptxas validates generated PTX; without it both are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-15 llvm-15-dev cmake ninja-build g++ pocl-opencl-icd ocl-icd-libopencl1
          ocl-icd-opencl-dev opencl-headers libgtest-dev libbenchmark-dev librange-v3-dev
          zlib1g-dev libzstd-dev
          # The ROF example (examples/rof) reads and writes PNG and PGM.
          libpng-dev libnetpbm-dev
          # The lit suite (tests/lit): llvm-15-tools has lit.py, FileCheck, not and
          # split-file; llvm-15 has opt; lit runs on python3.
          llvm-15-tools llvm-15 python3
          # The format test (ctest -R format) checks every source against .clang-format.
          clang-format-15
          # The install tests (tests/install) build a project with a plain Makefile, and
          # package the build with cpack -G DEB, which computes shared-library
          # dependencies with dpkg-shlibdeps (dpkg-dev) on the files that `file` says
          # are ELF (a minimal Debian 12 has no `file`: install_deb failed there,
          # scripts/fresh-debian.sh, 2026-11-25).
          make dpkg-dev file
          # The API reference (docs/api/Doxyfile, ctest api_reference).
          doxygen
          # pacxx_dist (gpu::dist over MPI; NCCL is opened at run time): mpirun, mpi.h.
          openmpi-bin libopenmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# PACXX_WERROR=ON in the environment makes compiler warnings errors (scripts/test.sh).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${PACXX_WERROR:+-DPACXX_WERROR=$PACXX_WERROR}
# No targets: all of them (what scripts/test.sh needs).
cmake --build build -j "$(nproc)" ${1:+--target "$@"}
