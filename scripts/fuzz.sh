#!/usr/bin/env bash
# Fuzzes sgfpat's readers of outside bytes with libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (needs clang: apt-get install clang
# libclang-rt-14-dev).  Builds the harnesses tests/fuzz/fuzz_*.cpp in
# build-fuzz (CMake option SGFPAT_FUZZ), then runs each, one after the
# other on one core, for SECONDS of wall time (default 600), from its
# committed corpus tests/fuzz_corpus/NAME/ and its working corpus
# build-fuzz/corpus/NAME/ (every input that reached a new feature, kept
# between runs, not committed).  The committed corpus is then made again:
# the fewest inputs that reach every edge reached (-merge=1 counting an edge
# once, not by how often it runs), plus the inputs of findings
# (finding-*, kept whatever they cover: tests/test_fuzz_corpus.cpp replays
# them all).  Findings (crash-*, leak-*, timeout-*, oom-*) go to
# build-fuzz/findings/NAME/; each log is build-fuzz/logs/NAME.log.
#
#   scripts/fuzz.sh [SECONDS] [NAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
root=$PWD
build=$root/build-fuzz
CXX=${CXX:-clang++} cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="${CXX:-clang++}" -DSGFPAT_FUZZ=ON >/dev/null
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do names+=("$(basename "$f" .cpp)"); done
fi
cmake --build "$build" -j "$(nproc)" --target "${names[@]}"
mkdir -p "$build/logs"
for name in "${names[@]}"; do
  corpus=$root/tests/fuzz_corpus/$name
  work=$build/corpus/$name
  mkdir -p "$corpus" "$work" "$build/findings/$name"
  # libFuzzer writes the inputs it keeps into the first folder; the
  # committed corpus is read as seeds and then replaced by the merge.  With
  # -jobs the run is a child process whose log (fuzz-0.log, copied to the
  # parent's output at its end) is written in the current folder.
  (cd "$build/logs" && "$build/$name" -max_total_time="$seconds" -jobs=1 -workers=1 -rss_limit_mb=2048 -timeout=20 \
    -max_len=65536 -artifact_prefix="$build/findings/$name/" -print_final_stats=1 \
    "$work" "$corpus") >"$build/logs/$name.log" 2>&1 || echo "$name: findings, see $build/logs/$name.log"
  grep -E "^#[0-9]+[[:space:]].*cov:" "$build/logs/$name.log" | tail -n 1 || true
  grep -E "^stat::number_of_executed_units|^Done" "$build/logs/$name.log" | tail -n 2 || true
  merged=$build/merged/$name
  rm -rf "$merged" && mkdir -p "$merged"
  (cd "$build/logs" && "$build/$name" -merge=1 -use_counters=0 -rss_limit_mb=2048 -timeout=20 "$merged" "$corpus" \
    "$work") >>"$build/logs/$name.log" 2>&1
  cp "$corpus"/finding-* "$merged"/ 2>/dev/null || true
  rm -rf "$corpus" && mkdir -p "$corpus" && cp "$merged"/* "$corpus"/
  echo "$name: corpus $(ls "$corpus" | wc -l) inputs, $(cat "$corpus"/* | wc -c) bytes"
done
