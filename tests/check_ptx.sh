#!/usr/bin/env bash
# Compiles every kernel of a pacxx program to PTX (as the CUDA backend would for an
# sm_90 device) and has ptxas validate it for sm_90.
set -eu
kernels_tool="$1" program="$2" dir="$3" ptxas="${4:-}"
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
  echo "SKIPPED: ptxas not found (CUDA toolkit missing at configure time)"
  exit 77
fi
rm -rf "$dir" && mkdir -p "$dir"
files=$("$kernels_tool" --ptx "$dir" --arch sm_90 "$program")
[ -n "$files" ] || { echo "no kernels found in $program"; exit 1; }
for f in $files; do
  "$ptxas" -arch=sm_90 "$f" -o "${f%.ptx}.cubin"
  echo "ptxas ok: $f ($(head -1 "$f"))"
done
