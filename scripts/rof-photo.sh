#!/usr/bin/env bash
# Puts a real photograph shipped by Debian where the ROF example (examples/rof) reads
# it: scikit-image's camera.png (512 x 512, grey) from the package python3-skimage,
# downloaded with apt-get and unpacked, not installed. Prints the file's path.
#   usage: scripts/rof-photo.sh [DIR]     (default build/rof-data)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build/rof-data}"
photo="$dir/camera.png"
if [ ! -s "$photo" ]; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && apt-get download -qq python3-skimage >/dev/null 2>&1) ||
    { apt-get update -qq && (cd "$tmp" && apt-get download -qq python3-skimage); }
  dpkg-deb --fsys-tarfile "$tmp"/python3-skimage_*.deb |
    tar -x -O ./usr/lib/python3/dist-packages/skimage/data/camera.png > "$photo.tmp"
  mv "$photo.tmp" "$photo"
fi
echo "$photo"
