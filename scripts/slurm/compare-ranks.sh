#!/usr/bin/env bash
# Compares the ranks of a job on a Slurm cluster, where the reports are (docs/architecture.md,
# "Scaling out"): one `lanescope-cli summarize` per report as a job array, then one dependent
# job running `lanescope-cli compare` over the summaries, which writes OUT_DIR/compare.json.
#
#   scripts/slurm/compare-ranks.sh OUT_DIR REPORT REPORT...     (two reports or more)
#
# Run it on a login node: it submits with sbatch, waits with squeue and needs nothing else of
# Slurm, so it runs unchanged on a real cluster. OUT_DIR and the reports must be on a file
# system that the compute nodes see at the same paths (the submitting host's relative paths
# are made absolute). It writes, in OUT_DIR:
#   reports.txt                 the reports, one a line; array task i summarizes line i+1
#   summaries/rank_<i>          task i's summary folder, i zero-padded (rank_000 ... rank_999
#                               for 1,000 reports), so that the names sort in REPORT order,
#                               the order `compare` keeps
#   compare.json                `lanescope-cli compare <the summaries in order> --format json`:
#                               the same bytes as `lanescope-cli compare REPORT... --format json`
#                               with the same (absolute) paths
#   logs/summarize_<i>.out, logs/compare.out    each job's output
#   status/summarize_<i>.rc, status/compare.rc  each job's exit status, written by the job
#   jobs/                       the two job scripts
# summaries/, logs/, status/, jobs/ and compare.json of an earlier run are removed first.
#
# Whether a job succeeded is read from the status files, not from Slurm: `sacct` needs the
# cluster's accounting database (slurmdbd), which not every cluster (nor the one-node test
# Slurm) has, and its `-c` (job completion file) mode does not know array tasks in Slurm 22.05
# (`sacct -c -j <array>` shows one task, COMPLETED, while another failed). squeue only tells
# when the jobs have left the queue and, for a failed task, its state and reason (shown in the
# error), while Slurm still lists it (MinJobAge, 300 s by default).
# A task killed by Slurm (time or memory limit, node failure) writes no status: it counts as
# failed. The compare job depends on the whole array (afterok) and is removed by Slurm
# (--kill-on-invalid-dep=yes) when a task failed.
#
# Environment:
#   LANESCOPE_CLI            the lanescope-cli to run (default: lanescope-cli on PATH, else this
#                            repository's build/release/app/lanescope-cli); must be at the
#                            same path on the compute nodes
#   LANESCOPE_SBATCH_ARGS    extra sbatch arguments for both jobs, split on spaces (e.g.
#                            "--partition=cpu --time=00:30:00 --mem=8G"); sbatch's own SBATCH_*
#                            variables (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT...) work too
#   LANESCOPE_ARRAY_LIMIT    at most this many summarize tasks at once (sbatch --array=...%N)
#   LANESCOPE_COMPARE_ARGS   extra compare arguments, split on spaces (e.g. "--align mpi")
#   LANESCOPE_SLURM_WAIT_S   how long to wait for both jobs, in seconds (default 3600)
#
# Exit status: 0 compare.json written; 1 bad usage; 2 a job failed, was not submitted or did
# not finish in time (one line per failed task naming its report and its log, then that log's
# last lines).
set -euo pipefail

usage() {
  echo "usage: $0 OUT_DIR REPORT REPORT..." >&2
  echo "  submits one lanescope-cli summarize per REPORT (a Slurm job array) and a dependent" >&2
  echo "  lanescope-cli compare writing OUT_DIR/compare.json; waits for them (see the script's header)" >&2
  exit 1
}
die() { echo "compare-ranks: $*" >&2; exit 2; }

case ${1:-} in -h|--help) usage;; esac
[ $# -ge 3 ] || usage  # compare needs two ranks at least

abspath() { if [[ $1 = /* ]]; then echo "$1"; else echo "$PWD/$1"; fi; }

out=$(abspath "${1%/}")
shift
n=$#
for r in "$@"; do
  [[ $r != *$'\n'* ]] || { echo "compare-ranks: a report path holds a newline: $r" >&2; exit 1; }
  if [ ! -f "$r" ] || [ ! -r "$r" ]; then echo "compare-ranks: not a readable file: $r" >&2; exit 1; fi
done

repo=$(cd "$(dirname "$0")/../.." && pwd)
cli=${LANESCOPE_CLI:-}
if [ -z "$cli" ]; then
  if command -v lanescope-cli >/dev/null; then
    cli=lanescope-cli
  elif [ -x "$repo/build/release/app/lanescope-cli" ]; then
    cli=$repo/build/release/app/lanescope-cli
  else
    echo "compare-ranks: no lanescope-cli on PATH nor in $repo/build/release/app: set LANESCOPE_CLI" >&2
    exit 1
  fi
fi
if [[ $cli != */* ]]; then
  cli=$(command -v "$cli") || { echo "compare-ranks: LANESCOPE_CLI=$cli is not on PATH" >&2; exit 1; }
fi
cli=$(abspath "$cli")
[ -x "$cli" ] || { echo "compare-ranks: not an executable: $cli" >&2; exit 1; }
for b in sbatch squeue; do
  command -v $b >/dev/null || { echo "compare-ranks: $b not found: run it where Slurm's commands are" >&2; exit 1; }
done

# Zero-padded to the digits of the last index: names sort as numbers.
last=$((n - 1))
width=${#last}
rank_dir() { printf '%s/summaries/rank_%0*d' "$out" "$width" "$1"; }

mkdir -p "$out"
rm -rf "$out/summaries" "$out/logs" "$out/status" "$out/jobs" "$out/compare.json" "$out/compare.json.part"
mkdir -p "$out/summaries" "$out/logs" "$out/status" "$out/jobs"
for r in "$@"; do abspath "$r"; done >"$out/reports.txt"

q() { printf '%q' "$1"; }

cat >"$out/jobs/summarize.sh" <<EOF
#!/bin/bash
# Array task i: summarizes line i+1 of reports.txt into summaries/rank_<i> (written by
# scripts/slurm/compare-ranks.sh).
set -u
out=$(q "$out")
cli=$(q "$cli")
i=\${SLURM_ARRAY_TASK_ID:?run as a task of a Slurm job array}
report=\$(sed -n "\$((i + 1))p" "\$out/reports.txt")
dir=\$(printf '%s/summaries/rank_%0*d' "\$out" $width "\$i")
status=\$out/status/summarize_\$i.rc
rm -f "\$status"
rm -rf "\$dir"
echo "summarize task \$i on \$(hostname): \$report -> \$dir"
if [ -z "\$report" ]; then
  echo "no line \$((i + 1)) in \$out/reports.txt" >&2
  rc=1
else
  "\$cli" summarize "\$report" --out "\$dir"
  rc=\$?
fi
echo "\$rc" >"\$status"
exit "\$rc"
EOF

compare_args=()
read -r -a compare_args <<<"${LANESCOPE_COMPARE_ARGS:-}" || true
cat >"$out/jobs/compare.sh" <<EOF
#!/bin/bash
# Compares the summaries in rank_<i> order, as the reports were given (written by
# scripts/slurm/compare-ranks.sh).
set -u
out=$(q "$out")
cli=$(q "$cli")
dirs=()
for ((i = 0; i < $n; i++)); do dirs+=("\$(printf '%s/summaries/rank_%0*d' "\$out" $width "\$i")"); done
rm -f "\$out/status/compare.rc" "\$out/compare.json"
echo "compare on \$(hostname): ${n} summaries"
"\$cli" compare "\${dirs[@]}" $(for a in "${compare_args[@]}"; do printf '%q ' "$a"; done)--format json >"\$out/compare.json.part"
rc=\$?
# Only a complete output is presented as compare.json.
[ "\$rc" -eq 0 ] && mv "\$out/compare.json.part" "\$out/compare.json"
echo "\$rc" >"\$out/status/compare.rc"
exit "\$rc"
EOF
chmod +x "$out/jobs/summarize.sh" "$out/jobs/compare.sh"

sbatch_args=()
read -r -a sbatch_args <<<"${LANESCOPE_SBATCH_ARGS:-}" || true
array="0-$((n - 1))"
[ -n "${LANESCOPE_ARRAY_LIMIT:-}" ] && array="$array%$LANESCOPE_ARRAY_LIMIT"

submit() {  # prints the job id (sbatch --parsable prints "id" or "id;cluster")
  local id
  id=$(sbatch --parsable --chdir="$out" --ntasks=1 --cpus-per-task=1 "${sbatch_args[@]}" "$@") ||
    die "sbatch $* failed"
  id=${id%%;*}
  [[ $id =~ ^[0-9]+$ ]] || die "sbatch printed no job id: '$id'"
  echo "$id"
}

array_id=$(submit --job-name=lanescope-summarize --array="$array" \
  --output="$out/logs/summarize_%a.out" "$out/jobs/summarize.sh")
compare_id=$(submit --job-name=lanescope-compare --dependency="afterok:$array_id" \
  --kill-on-invalid-dep=yes --output="$out/logs/compare.out" "$out/jobs/compare.sh")
echo "compare-ranks: submitted summarize array $array_id ($n tasks) and compare job $compare_id" >&2

trap 'echo "compare-ranks: interrupted; the jobs may still be queued: scancel $array_id $compare_id" >&2; exit 130' INT TERM

# Wait until neither job is in the queue any more (squeue lists pending and running ones;
# "Invalid job id" once Slurm has forgotten both). Polled every second for the first 30 s,
# then every 5 s, then every 15 s after 5 minutes.
wait_s=${LANESCOPE_SLURM_WAIT_S:-3600}
start=$SECONDS
left=""
while :; do
  if left=$(squeue -h -j "$array_id,$compare_id" -o '%i %T %r' 2>&1); then
    [ -z "$left" ] && break
  elif [[ $left == *"Invalid job id"* ]]; then
    break
  fi  # another squeue failure (slurmctld busy or restarting): try again until the deadline
  elapsed=$((SECONDS - start))
  if [ $elapsed -ge "$wait_s" ]; then
    echo "compare-ranks: the jobs did not finish within ${wait_s} s (LANESCOPE_SLURM_WAIT_S); still queued:" >&2
    while IFS= read -r line; do echo "  $line" >&2; done <<<"$left"
    echo "compare-ranks: they keep running; cancel them with: scancel $array_id $compare_id" >&2
    exit 2
  fi
  if [ $elapsed -lt 30 ]; then sleep 1; elif [ $elapsed -lt 300 ]; then sleep 5; else sleep 15; fi
done
trap - INT TERM

# What Slurm still knows of the finished jobs, for the error lines: "ID STATE REASON".
states=$(squeue -h -t all -j "$array_id,$compare_id" -o '%i %T %r' 2>/dev/null || true)
slurm_state() {  # $1: job id as squeue prints it (1234_5, 1235)
  local s
  s=$(awk -v id="$1" '$1 == id { print $2 " (" $3 ")" }' <<<"$states")
  echo "${s:-no longer listed by squeue}"
}
show_log() {
  if [ -s "$1" ]; then
    echo "  last lines of $1:" >&2
    tail -n 5 "$1" | sed 's/^/    /' >&2
  fi
}

failed=0
for ((i = 0; i < n; i++)); do
  rc=$(cat "$out/status/summarize_$i.rc" 2>/dev/null || true)
  if [ "$rc" = 0 ] && [ -f "$(rank_dir "$i")/rank-summary.json" ]; then continue; fi
  failed=$((failed + 1))
  report=$(sed -n "$((i + 1))p" "$out/reports.txt")
  if [ -n "$rc" ]; then why="exit status $rc"; else why="no exit status (killed or never ran)"; fi
  echo "compare-ranks: summarize task $i ($report) failed: $why, Slurm: $(slurm_state "${array_id}_$i"); log: $out/logs/summarize_$i.out" >&2
  show_log "$out/logs/summarize_$i.out"
done
rc=$(cat "$out/status/compare.rc" 2>/dev/null || true)
if [ "$rc" != 0 ] || [ ! -f "$out/compare.json" ]; then
  if [ $failed -gt 0 ]; then
    echo "compare-ranks: $failed of $n summarize tasks failed; the compare job $compare_id did not run: $(slurm_state "$compare_id")" >&2
  else
    if [ -n "$rc" ]; then why="exit status $rc"; else why="no exit status (killed or never ran)"; fi
    echo "compare-ranks: compare job $compare_id failed: $why, Slurm: $(slurm_state "$compare_id"); log: $out/logs/compare.out" >&2
    show_log "$out/logs/compare.out"
  fi
  exit 2
fi
echo "compare-ranks: $n ranks compared in $((SECONDS - start)) s: $out/compare.json" >&2
