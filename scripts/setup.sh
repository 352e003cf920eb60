#!/usr/bin/env bash
# Installs what is missing, builds sgfpat (Release) and runs the first steps
# of the README's tour on the shipped sample (data/tygem-sample.sgf.gz, 2,000
# 9-dan games): ingest, export the priors, evaluate a position, and ask the
# database about the shape of the move played there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target sgfpat

demo=build/demo
sample=data/tygem-sample.sgf.gz
rm -rf "$demo" && mkdir -p "$demo"
echo "== ingest $sample into $demo/go.db"
build/sgfpat ingest --db "$demo/go.db" "$sample"
echo
echo "== export the priors file"
build/sgfpat export --db "$demo/go.db" -o "$demo/go.priors"
echo
echo "== the moves the priors rank first before move 61 of the sample's first game"
build/sgfpat eval --priors "$demo/go.priors" --sgf "$sample" --move 60 --top 5
echo
echo "== what the database knows of the shape of K12, the move Black played there"
build/sgfpat query --db "$demo/go.db" --sgf "$sample" --move 60 --point K12
echo
echo "Done: build/sgfpat is ready (build/sgfpat --help; the tour is in README.md)."
