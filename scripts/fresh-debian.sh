#!/usr/bin/env bash
# Proves the README's set-up on a minimal Debian 12, as a new user meets it: builds a
# `debootstrap --variant=minbase bookworm` chroot (no compiler, no make, no CMake),
# clones this repository's HEAD into it and runs the README's two commands there as
# root. Run it whenever set-up, CMake files or dependencies change.
#
#   bash scripts/fresh-debian.sh [DIR] [example]
#       DIR: where the chroot goes (default /var/tmp/pacxx-fresh-debian; it is rebuilt);
#       example: runs only the first command (scripts/example.sh), as a newcomer's first run.
#
# Each command's wall time is printed (the README quotes the first run's).
#
# Needs root and Debian's mirror (scripts/debian-chroot.sh). The CUDA toolkit is not
# there, so the PTX checks skip, as on any machine without it. Logs: DIR.log
# (debootstrap) and the chroot's output.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/pacxx-fresh-debian}
commands="example test"
[ "${2:-}" = example ] && commands=example
source "$repo/scripts/debian-chroot.sh"
make_debian_chroot "$root"

# The committed state, as CI and a new user get it (uncommitted changes are not tested).
git clone -q "$repo" "$root/root/pacxx"
echo "fresh-debian: testing $(git -C "$repo" log -1 --format='%h %s')"

in_debian_chroot "$root" 'cd /root/pacxx
    echo "fresh-debian: make $(command -v make || echo absent), cmake $(command -v cmake || echo absent), c++ $(command -v c++ || echo absent)"'
for c in $commands; do
  start=$(date +%s)
  in_debian_chroot "$root" "set -e; cd /root/pacxx; bash scripts/$c.sh"
  echo "fresh-debian: scripts/$c.sh passed in $(( $(date +%s) - start )) s on $(nproc) CPUs"
done
echo "fresh-debian: $commands passed in a minimal Debian 12"
