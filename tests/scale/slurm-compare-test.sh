#!/usr/bin/env bash
# The scale-out path on a real Slurm (docs/architecture.md, "Scaling out"): starts a one-node
# Slurm on this machine (tests/scale/local-slurm.sh), runs scripts/slurm/compare-ranks.sh on
# the corpus's three MPI jacobi ranks (summarize as a job array, compare as a dependent job)
# and checks that its compare.json is, byte for byte, what `lanescope-cli compare` prints for
# the three reports themselves. Slurm is stopped on every exit. Prints one PASS or FAIL line;
# exit 0 or 1.
#
#   tests/scale/slurm-compare-test.sh        (as root; LANESCOPE_CLI, default build/release/app/lanescope-cli)
#
# Needs root, slurm-wlm and munge (LANESCOPE_WITH_SLURM=1 scripts/install-deps.sh) and
# ../shared/corpus beside the repository; without them it says it was skipped and exits 0,
# except under CI=true, where their absence fails.
#
# The bytes can be equal because the summaries record the report's path as given to
# `summarize` (source.path) and `compare` prints that path for a summary ("files"), the
# report's for a report; compare-ranks.sh gives summarize absolute paths, so the direct
# compare here is given the same absolute paths. Nothing is left out of the comparison.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
name=slurm-compare-test

skip_or_fail() {
  if [ "${CI:-}" = "true" ]; then
    echo "$name: FAIL: $1 (CI=true: it must be there)"
    exit 1
  fi
  echo "$name: skipped: $1"
  exit 0
}

ranks_dir=$repo/../shared/corpus/public/mpi-jacobi
[ -d "$repo/../shared" ] || skip_or_fail "../shared absent"
ranks_dir=$(cd "$ranks_dir" 2>/dev/null && pwd) || skip_or_fail "../shared/corpus/public/mpi-jacobi absent"
reports=()
for r in 3 4 6; do
  f=$ranks_dir/openhackathons-org__gpubootcamp__report$r.qdrep
  [ -f "$f" ] || skip_or_fail "$f absent"
  reports+=("$f")
done
[ "$(id -u)" -eq 0 ] || skip_or_fail "not root (a local Slurm's daemons need it)"
export PATH=$PATH:/usr/sbin
for b in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v $b >/dev/null || skip_or_fail "$b absent (install slurm-wlm and munge: LANESCOPE_WITH_SLURM=1 scripts/install-deps.sh)"
done

cli=${LANESCOPE_CLI:-$repo/build/release/app/lanescope-cli}
[ -x "$cli" ] || { echo "$name: FAIL: no lanescope-cli at $cli (set LANESCOPE_CLI)"; exit 1; }
export LANESCOPE_CLI=$cli

work=$(mktemp -d /tmp/lanescope-slurm-test.XXXXXX)
# A Slurm of its own (folder, ports), so that one started by hand with local-slurm.sh's
# defaults is neither used nor stopped.
export LANESCOPE_SLURM_DIR=$work/slurm
export LANESCOPE_SLURM_PORT=${LANESCOPE_SLURM_PORT:-16837}
started=$SECONDS
cleanup() {
  "$repo/tests/scale/local-slurm.sh" stop || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "$name: FAIL: $1 ($((SECONDS - started)) s)"
  exit 1
}

env_line=$("$repo/tests/scale/local-slurm.sh" start) || fail "the local Slurm did not start (messages above)"
eval "$env_line"
[ -n "${SLURM_CONF:-}" ] || fail "local-slurm.sh start printed no SLURM_CONF"

"$cli" compare "${reports[@]}" --format json >"$work/direct.json" ||
  fail "lanescope-cli compare on the reports failed"

LANESCOPE_SLURM_WAIT_S=${LANESCOPE_SLURM_WAIT_S:-180} \
  "$repo/scripts/slurm/compare-ranks.sh" "$work/out" "${reports[@]}" ||
  fail "compare-ranks.sh failed (messages above)"

for i in 0 1 2; do
  [ -f "$work/out/summaries/rank_$i/rank-summary.json" ] || fail "no summary folder rank_$i"
done
if ! cmp -s "$work/direct.json" "$work/out/compare.json"; then
  diff -u "$work/direct.json" "$work/out/compare.json" | head -40 || true
  fail "compare.json from Slurm differs from lanescope-cli compare on the reports (diff above)"
fi
echo "$name: PASS: compare.json from a Slurm job array of 3 summaries and a dependent compare equals the direct compare of the 3 reports, $(wc -c <"$work/direct.json") bytes ($((SECONDS - started)) s)"
