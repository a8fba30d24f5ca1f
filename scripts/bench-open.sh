#!/usr/bin/env bash
# Prints, in one run, the figures of the open paths for one .nsys-rep (docs/performance.md):
#   - nsys export of it to SQLite (when nsys is installed; else give its export as 2nd argument),
#   - lanescope-bench import of the .nsys-rep natively on 1 and 2 threads, and of its export,
#   - lanescope-cli info on the export against a bare sqlite3 scan of its NVTX_EVENTS rows.
# usage: scripts/bench-open.sh REPORT.nsys-rep [REPORT.sqlite]   (BUILD_DIR, default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
rep=${1:?usage: scripts/bench-open.sh REPORT.nsys-rep [REPORT.sqlite]}
build=${BUILD_DIR:-build/release}
bench=$build/tests/bench/lanescope-bench
cli=$build/app/lanescope-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
field() { grep "^$1=" | cut -d= -f2; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
now() { date +%s.%N; }

export_s=""
if [ $# -ge 2 ]; then
  sqlite=$2
elif command -v nsys >/dev/null; then
  sqlite=$work/export.sqlite
  start=$(now)
  nsys export --type sqlite --force-overwrite true -o "$sqlite" "$rep" >/dev/null 2>&1
  export_s=$(awk -v a="$(now)" -v b="$start" 'BEGIN { print a - b }')
else
  echo "bench-open: no nsys to export $rep: give its SQLite export as second argument" >&2
  exit 1
fi

native1=$($bench import "$rep" --runs 5 --threads 1)
native2=$($bench import "$rep" --runs 5 --threads 2)
viaSqlite=$($bench import "$sqlite" --runs 5 --threads 2)
info=$(for i in 1 2 3 4 5; do seconds "$cli" info "$sqlite"; done | median)
infoRss=$(/usr/bin/time -f "%M" "$cli" info "$sqlite" 2>&1 >/dev/null | tail -1)
scan=$(for i in 1 2 3 4 5; do
  seconds sqlite3 "$sqlite" "SELECT count(*), total(start), total(end), total(eventType), total(length(text)),
    total(textId), total(globalTid), total(domainId), total(color), total(category) FROM NVTX_EVENTS"
done | median)

n1=$(echo "$native1" | field import_s)
n2=$(echo "$native2" | field import_s)
sq=$(echo "$viaSqlite" | field import_s)
printf 'events                      %s\n' "$(echo "$native2" | field events)"
[ -n "$export_s" ] && printf 'nsys export to SQLite       %.2f s\n' "$export_s"
printf 'native, 1 thread            %.3f s  %s MB peak\n' "$n1" "$(echo "$native1" | field peak_rss_mb)"
printf 'native, 2 threads           %.3f s  %s MB peak\n' "$n2" "$(echo "$native2" | field peak_rss_mb)"
printf 'SQLite export, 2 threads    %.3f s  %s MB peak\n' "$sq" "$(echo "$viaSqlite" | field peak_rss_mb)"
printf 'native / SQLite             %s  (goal: at most 1.2)\n' "$(ratio "$n2" "$sq")"
[ -n "$export_s" ] && printf 'nsys export / native        %s  (goal: at least 6)\n' "$(ratio "$export_s" "$n2")"
printf 'lanescope-cli info (SQLite) %.2f s  %d MB peak\n' "$info" "$((infoRss / 1024))"
printf 'sqlite3 scan of NVTX_EVENTS %.2f s\n' "$scan"
printf 'info / sqlite3 scan         %s  (goal: at most 1.5)\n' "$(ratio "$info" "$scan")"
