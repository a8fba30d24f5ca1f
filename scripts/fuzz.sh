#!/usr/bin/env bash
# Runs each importer's libFuzzer target for SECONDS (default 60) under clang with ASan+UBSan,
# starting from small seeds (tests/data/fuzz, and six small .nsys-rep: two with CUDA graphs and
# event records, one with unified memory, one with NCCL's NVTX payloads, all 2025.3 ones with
# Nsight's messages; inputs of at most MAX_LEN bytes, default 128 KiB, run hundreds of times
# faster than whole reports); new crashes land in build/fuzz/crashes/, each target's full log in
# build/fuzz/logs/. Prints one summary line per target (runs, seconds, exec/s, coverage, crashes).
# Installs clang when missing. TARGETS="fuzz_gzip ..." runs a subset; FORK=N runs each target in
# N worker processes (libFuzzer's -fork, which goes on past a crash and keeps each one).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/install-deps.sh
if ! command -v clang++ >/dev/null || ! dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "needs: apt-get install clang libclang-rt-14-dev" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLANESCOPE_BUILD_GUI=OFF -DLANESCOPE_LIBFUZZER=ON \
  "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer" >/dev/null
read -r -a targets <<<"${TARGETS:-fuzz_kineto_json fuzz_gzip fuzz_nsys_sqlite fuzz_perfetto fuzz_nsysrep}"
cmake --build build/fuzz --target "${targets[@]}"
mkdir -p build/fuzz/crashes build/fuzz/logs
declare -A seeds=(
  [fuzz_kineto_json]=tests/data/fuzz/small.json
  [fuzz_gzip]=tests/data/fuzz/small.json.gz
  [fuzz_nsys_sqlite]="tests/data/fuzz/small.sqlite tests/data/fuzz/small_payloads.sqlite"
  [fuzz_perfetto]="tests/data/fuzz/small.pftrace tests/data/fuzz/small_kinds.pftrace"
  [fuzz_nsysrep]="tests/data/nsys-2022.4/cpu_nvtx_threads.nsys-rep tests/data/nsys-2025.3/train_1gpu.nsys-rep
                  tests/data/nsys-2025.3/cuda_graphs.nsys-rep tests/data/nsys-2025.3/cuda_graphs_nodes.nsys-rep
                  tests/data/nsys-2025.3/unified_memory.nsys-rep tests/data/nsys-2025.3/ddp_rank0.nsys-rep")
# A .nsys-rep keeps its table of contents at the end: its seeds are whole files, up to 448 KiB.
declare -A max_len=([fuzz_nsysrep]=458752)
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t
  mkdir -p "$corpus"
  read -r -a seed_files <<<"${seeds[$t]}"
  cp -n "${seed_files[@]}" "$corpus/"
  log=build/fuzz/logs/$t.log
  echo "== $t for ${seconds}s" >&2
  build/fuzz/tests/fuzz/$t -max_total_time="$seconds" -max_len="${MAX_LEN:-${max_len[$t]:-131072}}" -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix=build/fuzz/crashes/$t- ${FORK:+-fork=$FORK -ignore_crashes=1} \
    "$corpus" >"$log" 2>&1 || true
  grep -E "ERROR|SUMMARY|crash-|leak-|timeout-|oom-" "$log" | head -20 || true
  if [ -n "${FORK:-}" ]; then  # fork mode's last status line: "#RUNS: cov: ... exec/s: E ... time: Ts"
    last=$(grep -E "^#[0-9]+: cov:" "$log" | tail -1)
    runs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")
    secs=$(sed -n 's/.* time: \([0-9]*\)s.*/\1/p' <<<"$last")
    speed=$(sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p' <<<"$last")
  else
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  fi
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1)
  crashes=$(ls build/fuzz/crashes | grep -c "^$t-" || true)
  echo "$t: ${runs:-?} runs in ${secs:-?} s, ${speed:-?} exec/s, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l), crashes $crashes"
done
ls build/fuzz/crashes
