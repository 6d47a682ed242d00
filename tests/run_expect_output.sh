#!/usr/bin/env bash
# Runs a program and passes only if it exits with status 0 and its output (stdout and
# stderr together) matches an extended regular expression, so that a test checks both:
# ctest's PASS_REGULAR_EXPRESSION alone ignores the exit status.
#   run_expect_output.sh REGEX PROGRAM [ARGS...]
set -u
regex="$1"; shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 0 ]; then
  echo "FAILED: exit status $rc (expected 0)"
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Ezq -- "$regex"; then
  echo "FAILED: the output does not match: $regex"
  exit 1
fi
