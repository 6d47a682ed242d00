#!/usr/bin/env bash
# Proves the Debian package on a minimal Debian 12: in a fresh `debootstrap
# --variant=minbase bookworm` chroot, `apt install ./pacxx_*.deb` (apt resolves its
# dependencies from Debian's mirror; recommended packages too, as apt does by default),
# plus pocl-opencl-icd (suggested: OpenCL on the CPU, as there is no GPU) and cmake and
# make (the user's own build tools); then, as a user would:
#   pacxx++ --version; pacxx++ saxpy.cpp -o saxpy && ./saxpy          (examples/saxpy.cpp)
#   tests/cmake_project with find_package(pacxx) and clang++-15, and with pacxx++ as
#   CMAKE_CXX_COMPILER, both run
#
#   bash scripts/deb-install-check.sh [DEB] [DIR]   # DEB: default build/pacxx_*.deb
#                                                   # (cd build && cpack -G DEB);
#                                                   # DIR: the chroot (default
#                                                   # /var/tmp/pacxx-deb-check; rebuilt)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
deb=${1:-$(ls "$repo"/build/pacxx_*.deb 2>/dev/null | head -1)}
root=${2:-/var/tmp/pacxx-deb-check}
[ -f "$deb" ] || { echo "deb-install-check: no package (run cpack -G DEB in build/)" >&2; exit 1; }
source "$repo/scripts/debian-chroot.sh"
make_debian_chroot "$root"

mkdir -p "$root/root/check"
cp "$deb" "$root/root/check/"
cp "$repo/examples/saxpy.cpp" "$root/root/check/"
cp -r "$repo/tests/cmake_project" "$root/root/check/project"
in_debian_chroot "$root" 'set -e; cd /root/check
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./pacxx_*.deb pocl-opencl-icd cmake make > apt.log
    pacxx++ --version
    pacxx++ -O2 saxpy.cpp -o saxpy
    PACXX_DEVICE=opencl ./saxpy
    for way in package compiler; do
      cmake -DWAY=$way -DSRC=/root/check/project -DBIN=/root/check/$way -DPREFIX=/usr \
            -DPACXX_CXX=/usr/bin/pacxx++ -DCLANGXX=/usr/bin/clang++-15 \
            "-DGENERATOR=Unix Makefiles" -DMAKE_PROGRAM=/usr/bin/make -P project/run.cmake
    done'
echo "deb-install-check: $(basename "$deb") installed with apt on a minimal Debian 12; programs built and ran"
