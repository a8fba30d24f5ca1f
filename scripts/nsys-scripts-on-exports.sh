#!/usr/bin/env bash
# Runs an Nsight Systems' own `nsys stats` (every report it lists) and `nsys analyze` (every rule)
# on SQLite exports, and compares what it prints on Lanescope's export of a report with what it
# prints on nsys's export of the same report, file by file (docs/sql.md, "Tools written for nsys
# exports"). Made for an nsys that is not at hand here, such as 2025.3 on the GPU machine; for
# the installed one, `query_nsys_scripts_tests` does the same.
#
#   scripts/nsys-scripts-on-exports.sh NSYS DIR OUT
#
# DIR holds NAME.lanescope.sqlite and, for a report that has one, NAME.nsys.sqlite (either may be
# xz-compressed, .sqlite.xz). OUT gets each export's output (OUT/NAME.lanescope/s_<report>.csv,
# a_<rule>.csv) and summary.txt: per file "same", "DIFF", "ONLY-NSYS" or "ONLY-LANESCOPE". Exits
# 1 when any file differs.
set -uo pipefail
[ $# -eq 3 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
nsys=$1 dir=$2 out=$3
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# xz, or Python's lzma where xz is not installed (the GPU machine).
inflate() {
  if command -v xz > /dev/null; then xz -dc "$1"
  else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi
}
for f in "$dir"/*.sqlite "$dir"/*.sqlite.xz; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .xz)
  if [[ $f == *.xz ]]; then inflate "$f" > "$work/$name"; else cp "$f" "$work/$name"; fi
done
reports=$("$nsys" stats --help-reports 2>/dev/null | awk '/^  [a-z]/{print $1}' | sed 's/\[.*//' | paste -sd,)
rules=$("$nsys" analyze --help-rules 2>/dev/null | awk '/^  [a-z]/{print $1}' | sed 's/\[.*//')
"$nsys" --version > "$out/summary.txt" 2>&1

# Each export in its own folder, several at once.
run_one() {
  local db=$1 dest=$2
  mkdir -p "$dest"
  (cd "$dest" && "$nsys" stats -r "$reports" -f csv -o s "$db" > log 2>&1
   for rule in $rules; do "$nsys" analyze -r "$rule" -f csv -o a "$db" >> log 2>&1; done)
}
for db in "$work"/*.sqlite; do run_one "$db" "$out/$(basename "$db" .sqlite)" & done
wait

status=0
for ours in "$out"/*.lanescope; do
  name=$(basename "$ours" .lanescope)
  theirs=$out/$name.nsys
  if [ ! -d "$theirs" ]; then
    echo "$name: no nsys export; $(ls "$ours" | grep -c '\.csv$') files printed" >> "$out/summary.txt"
    continue
  fi
  for file in $( (ls "$ours"; ls "$theirs") | grep '\.csv$' | sort -u); do
    if [ ! -e "$ours/$file" ]; then verdict=ONLY-NSYS; status=1
    elif [ ! -e "$theirs/$file" ]; then verdict=ONLY-LANESCOPE; status=1
    elif cmp -s "$ours/$file" "$theirs/$file"; then verdict="same ($(wc -l < "$ours/$file") lines)"
    else verdict=DIFF; status=1; fi
    echo "$name $file $verdict" >> "$out/summary.txt"
  done
done
grep -c " same " "$out/summary.txt" | sed 's/$/ files the same/'
grep -v " same " "$out/summary.txt"
exit $status
