#!/usr/bin/env bash
# Proves the README's set-up on a minimal Debian 12, as a new user meets it: builds a
# `debootstrap --variant=minbase bookworm` chroot (no compiler, no make, no CMake),
# clones this repository's HEAD into it and runs the README's two commands there as
# root. Run it whenever set-up, CMake files or dependencies change.
#
#   bash scripts/fresh-debian.sh [DIR]    # DIR: where the chroot goes (default
#                                         # /var/tmp/pacxx-fresh-debian; it is rebuilt)
#
# Needs root and Debian's mirror. /proc, /sys and /dev are bound into the chroot: PoCL
# reads the machine's memory and CPUs from /sys and aborts without it ("Not enough
# memory to run on this device"). The CUDA toolkit is not there, so the PTX checks skip,
# as on any machine without it. Logs: DIR.log (debootstrap) and the chroot's output.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/pacxx-fresh-debian}
mirror=${PACXX_DEBIAN_MIRROR:-http://deb.debian.org/debian}

[ "$(id -u)" = 0 ] || { echo "fresh-debian: run as root (debootstrap, chroot, mounts)" >&2; exit 1; }
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi

mounts=(proc sys dev)
unmount() {
  for m in dev sys proc; do
    if mountpoint -q "$root/$m"; then umount -l "$root/$m"; fi
  done
}
trap unmount EXIT

unmount
rm -rf "$root"
echo "fresh-debian: debootstrap --variant=minbase bookworm $root (log: $root.log)"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.log" 2>&1 ||
  { tail -20 "$root.log"; exit 1; }
for m in "${mounts[@]}"; do
  mount --rbind "/$m" "$root/$m"
  mount --make-rslave "$root/$m"
done
cp /etc/resolv.conf "$root/etc/resolv.conf"

# The committed state, as CI and a new user get it (uncommitted changes are not tested).
git clone -q "$repo" "$root/root/pacxx"
echo "fresh-debian: testing $(git -C "$repo" log -1 --format='%h %s')"

chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  /bin/bash -c 'set -e; cd /root/pacxx
    echo "fresh-debian: make $(command -v make || echo absent), cmake $(command -v cmake || echo absent), c++ $(command -v c++ || echo absent)"
    bash scripts/example.sh
    bash scripts/test.sh'
echo "fresh-debian: both README commands passed in a minimal Debian 12"
