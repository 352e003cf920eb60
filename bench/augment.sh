#!/usr/bin/env bash
# The augmentation benchmark of issue 12: the 8 symmetric copies of every
# game of a corpus (bench/augment.py), ingested from scratch into a fresh
# database under the default 2 GiB budget.  Prints games, wall and CPU
# seconds, the time split, peak RSS, the counting mode and kept patterns.
#
#   bench/augment.sh [SGFPAT_BINARY] [CORPUS_DIR] [GAMES]
#
# GAMES: how many games of the corpus to augment (default all: tygem-dev's
# 286k games make 2.3M).  MEMORY_MB and THREADS are passed to ingest.
# With symmetry on (the default), the 8 copies of a game have the same
# patterns, so every pattern played once in the corpus is played 8 times
# and kept: the kept set is every distinct played pattern of the corpus.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/sgfpat}
corpus=${2:-$here/../shared/corpus/tygem-dev}
games=${3:-all}
work=$(mktemp -d /tmp/sgfpat-augment-XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ "$games" = all ]; then
  zcat "$corpus"/*.sgf.gz | python3 "$here/bench/augment.py" > "$work/input.sgf"
else
  { zcat "$corpus"/*.sgf.gz || true; } | head -n "$games" | python3 "$here/bench/augment.py" > "$work/input.sgf"
fi
extra=()
[ -n "${MEMORY_MB:-}" ] && extra+=(--memory-mb "$MEMORY_MB")
[ -n "${THREADS:-}" ] && extra+=(--threads "$THREADS")
/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" ingest --db "$work/db" --quiet --json "${extra[@]}" "$work/input.sgf" > "$work/out.json"
python3 - "$work/out.json" "$work/time" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); wall, user, sys_, kb = open(sys.argv[2]).read().split()[-4:]
c = j["count"]; s = c["seconds"]
print("games %d (%d read), wall %.1f s, CPU %.1f s, peak RSS %.0f MB" % (
    j["games_in_db"], j["games_read"], float(wall), float(user) + float(sys_), int(kb) / 1024))
print("import %.1f s, pass1 %.1f s, pass2 %.1f s, commit %.1f s; %s, %d parts, %d kept keys, %d drains, %d pruned, sketch fill %.2f" % (
    j["import_seconds"], s["pass1"], s["pass2"], s["commit"], c["mode"], c.get("parts", 0), c["kept_keys"],
    c.get("drains", 0), c["pruned"], c["sketch_fill"]))
print("patterns per level:", " ".join(str(x) for x in c["patterns_per_level"]))
PY
