#!/usr/bin/env bash
# Runs a test program on the CUDA device, or skips (exit 77) with the reason when
# this machine has none.
set -u
info="$1"; shift
if ! "$info" | grep -q '^  cuda:0'; then
  echo "SKIPPED: no CUDA GPU on this machine ($("$info" | grep 'note: cuda' | head -1))"
  exit 77
fi
PACXX_DEVICE=cuda exec "$@"
