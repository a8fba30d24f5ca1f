#!/usr/bin/env bash
# The style checks CI runs (CI=true ./test): clang-format (.clang-format) on every C++ source
# of the project, and clang-tidy with the agreed check set (.clang-tidy) on the product code.
# Needs a configured build for clang-tidy's compile_commands.json: BUILD_DIR (default
# build/release). FORMAT_ONLY=1 skips clang-tidy. Run `scripts/check-style.sh --fix` to
# reformat instead of checking.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build/release}

mapfile -t sources < <(git ls-files '*.cpp' '*.h' '*.cpp.in')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${sources[@]}"
  exit 0
fi

echo "== clang-format: ${#sources[@]} files" >&2
clang-format --dry-run -Werror "${sources[@]}"

if [ "${FORMAT_ONLY:-0}" != "1" ]; then
  echo "== clang-tidy: model, analysis, importers, exporters, query, timeline, app" >&2
  # A unity build (CI's) lists its batches (Unity/unity_N_cxx.cxx, each #including 8 sources) in
  # compile_commands.json: clang-tidy checks each batch as one unit, parsing the headers once for
  # its 8 sources (a third of the time of one run a source), and reports what it finds in the
  # sources it includes through HeaderFilterRegex (.clang-tidy). A build file by file lists the
  # sources themselves.
  products="(model|analysis|importers|exporters|query|timeline|app)"
  build_abs=$(realpath "$build_dir")
  # -Werror as CI's build has it (./test configures with LANESCOPE_WERROR): clang-tidy reports the
  # compiler's warnings as errors there, so a build configured without it checks the same.
  run-clang-tidy -p "$build_dir" -quiet -extra-arg=-Werror -extra-arg=-Wno-unknown-warning-option \
    "^($(pwd)/$products/.*\.cpp|$build_abs/$products/([^/]+/)*CMakeFiles/[^/]+\.dir/Unity/unity_[0-9]+_cxx\.cxx)$" \
    >/tmp/lanescope-tidy.log 2>&1 ||
    { grep -E "warning:|error:" /tmp/lanescope-tidy.log | sort -u; echo "clang-tidy found problems (full log: /tmp/lanescope-tidy.log)" >&2; exit 1; }
fi
echo "style checks passed" >&2
