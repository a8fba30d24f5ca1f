#!/usr/bin/env bash
# Runs each importer's libFuzzer target for SECONDS (default 60) under clang with ASan, starting
# from the corpus seeds; new crashes land in build/fuzz/crashes/. Installs clang when missing.
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
targets=(fuzz_kineto_json fuzz_gzip fuzz_nsys_sqlite fuzz_perfetto)
cmake --build build/fuzz --target "${targets[@]}"
mkdir -p build/fuzz/crashes
declare -A seeds=(
  [fuzz_kineto_json]=tests/data/kineto/train_1gpu_rank0.pt.trace.json
  [fuzz_gzip]=tests/data/kineto/ddp_rank0.pt.trace.json.gz
  [fuzz_nsys_sqlite]=tests/data/nsys-2022.4/cpu_nvtx_threads.sqlite
  [fuzz_perfetto]=tests/data/fuzz/small.pftrace)
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t
  mkdir -p "$corpus"
  cp -n "${seeds[$t]}" "$corpus/"
  echo "== $t for ${seconds}s" >&2
  build/fuzz/tests/fuzz/$t -max_total_time="$seconds" -max_len=8000000 -rss_limit_mb=4096 \
    -artifact_prefix=build/fuzz/crashes/$t- "$corpus" 2>&1 | grep -E "Done [0-9]+ runs|ERROR|SUMMARY|crash-" || true
done
ls build/fuzz/crashes
