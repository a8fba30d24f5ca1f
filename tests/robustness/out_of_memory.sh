#!/bin/sh
# Running out of memory part-way through an import (the estimate let it start) ends in exit 2
# with one line, never a crash: lanescope-cli runs under a virtual memory limit too small for a
# 2-million-event report, with LANESCOPE_MEMORY_LIMIT_MB lifting the estimate's refusal.
# Usage: out_of_memory.sh LANESCOPE_BENCH LANESCOPE_CLI
set -u
bench=$1 cli=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bench" generate --events 2000000 --out "$dir/big.sqlite" >/dev/null || exit 1
(ulimit -v 170000; LANESCOPE_MEMORY_LIMIT_MB=100000 exec "$cli" info "$dir/big.sqlite" --format json) \
  >"$dir/out" 2>"$dir/err"
rc=$?
echo "exit $rc: $(cat "$dir/err")"
[ "$rc" -eq 2 ] || exit 1
[ "$(wc -l <"$dir/err")" -eq 1 ] || exit 1
# Where many cores make thread stacks and arenas take the address space first, starting a
# thread fails instead: also one line.
grep -Eq "^lanescope-cli: $dir/big.sqlite: (ran out of memory while opening it|cannot be opened: Resource temporarily unavailable)" \
  "$dir/err" || exit 1
