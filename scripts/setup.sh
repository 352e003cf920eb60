#!/usr/bin/env bash
# Installs what is missing, builds sgfpat (Release) and runs the demo on the
# sample games in data/: ingest, export priors, evaluate a position.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target sgfpat

demo=build/demo
rm -rf "$demo" && mkdir -p "$demo"
echo "== ingest data/ into $demo/patterns.db"
build/sgfpat ingest --db "$demo/patterns.db" --min-played 1 --quiet data/
echo
echo "== export the priors file"
build/sgfpat export --db "$demo/patterns.db" -o "$demo/patterns.priors"
echo
echo "== evaluate the position after move 30 of the first sample game"
build/sgfpat eval --priors "$demo/patterns.priors" --sgf data/gnugo-19x19.sgf --move 30 --top 5
echo
echo "== ask the database about the shape of the move played there"
point=$(build/sgfpat eval --priors "$demo/patterns.priors" --sgf data/gnugo-19x19.sgf --move 30 --json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["moves"][0]["move"])')
build/sgfpat query --db "$demo/patterns.db" --sgf data/gnugo-19x19.sgf --move 30 --point "$point"
echo
echo "== move prediction on the 9x9 sample games (they were ingested: this only shows the report)"
build/sgfpat accuracy --priors "$demo/patterns.priors" data/gnugo-9x9.sgf
echo
echo "Done: build/sgfpat is ready (try build/sgfpat --help)."
