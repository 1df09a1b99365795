#!/usr/bin/env bash
# Checks that a shared library exports exactly the expected symbols: the
# defined dynamic symbols (`nm -D --defined-only`, demangled) against a list,
# one a line.  Prints the difference and exits 1 when they differ.
#
# usage: check-exports.sh <library> <expected-list>
set -euo pipefail

lib=$1
expected=$2
actual=$(nm -D --defined-only -C --format=just-symbols "$lib" | LC_ALL=C sort)
if ! diff -u <(LC_ALL=C sort "$expected") <(printf '%s\n' "$actual") \
     --label expected --label "$(basename "$lib")"; then
  echo "$(basename "$lib"): exports differ from $expected"
  echo "(- expected but not exported, + exported but not expected)"
  exit 1
fi
echo "$(basename "$lib"): $(wc -l < "$expected") symbols exported, as expected"
