#!/usr/bin/env bash
# Builds sgfpat and runs every test (ctest).  SGFPAT_SANITIZE=1 builds with
# AddressSanitizer + UndefinedBehaviorSanitizer in build-asan instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
if [ "${SGFPAT_SANITIZE:-0}" = 1 ]; then
  build=build-asan
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSGFPAT_SANITIZE=ON >/dev/null
else
  build=build
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
