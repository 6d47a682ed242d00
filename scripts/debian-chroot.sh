# Sourced by fresh-debian.sh and deb-install-check.sh: make_debian_chroot ROOT builds a
# `debootstrap --variant=minbase bookworm` chroot in ROOT (rebuilt if it exists; log:
# ROOT.log), with /proc, /sys and /dev bound into it (unmounted on exit) and the host's
# resolv.conf. PoCL reads the machine's memory and CPUs from /sys and aborts without it
# ("Not enough memory to run on this device"). Needs root and Debian's mirror
# (PACXX_DEBIAN_MIRROR, default deb.debian.org).
debian_chroot_unmount() {
  for m in dev sys proc; do
    if mountpoint -q "$1/$m"; then umount -l "$1/$m"; fi
  done
}

make_debian_chroot() {
  local root=$1 mirror=${PACXX_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  [ "$(id -u)" = 0 ] || { echo "$(basename "$0"): run as root (debootstrap, chroot, mounts)" >&2; exit 1; }
  if ! command -v debootstrap >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
  fi
  # shellcheck disable=SC2064 # the root is fixed now
  trap "debian_chroot_unmount '$root'" EXIT
  debian_chroot_unmount "$root"
  rm -rf "$root"
  echo "$(basename "$0"): debootstrap --variant=minbase bookworm $root (log: $root.log)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.log" 2>&1 ||
    { tail -20 "$root.log"; exit 1; }
  for m in proc sys dev; do
    mount --rbind "/$m" "$root/$m"
    mount --make-rslave "$root/$m"
  done
  cp /etc/resolv.conf "$root/etc/resolv.conf"
}

# in_debian_chroot ROOT SCRIPT: runs SCRIPT with bash in ROOT as root, in a clean environment.
in_debian_chroot() {
  chroot "$1" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    /bin/bash -c "$2"
}
