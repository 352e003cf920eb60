#!/usr/bin/env bash
# Ingestion benchmark: fresh databases from growing prefixes of the
# tygem-dev corpus (10k games, ~50k games, all), L=10, symmetry on,
# threshold 2, both counting passes.  Prints games/s, the time split,
# peak memory and database size per 1,000 games for each size.
#
#   bench/ingest.sh [SGFPAT_BINARY] [CORPUS_DIR] [SIZES...]
#
# SGFPAT_BENCH_KEEP=DIR keeps the database of the last size in DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/sgfpat}
corpus=${2:-$here/../shared/corpus/tygem-dev}
shift $(( $# > 2 ? 2 : $# )) || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 50000 all)
work=$(mktemp -d /tmp/sgfpat-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

printf '%8s %9s %8s %8s %8s %8s %8s %9s %10s\n' games 'games/s' import pass1 pass2 commit 'peak MB' 'db MB' 'KB/1000g'
for n in "${sizes[@]}"; do
  input="$work/input.sgf"
  if [ "$n" = all ]; then
    zcat "$corpus"/*.sgf.gz > "$input"
  else
    # zcat dies of SIGPIPE when head has enough: not an error here.
    { zcat "$corpus"/*.sgf.gz || true; } | head -n "$n" > "$input"
  fi
  rm -rf "$work/db"
  /usr/bin/time -f '%M' -o "$work/mem" "$bin" ingest --db "$work/db" --quiet --json "$input" > "$work/out.json"
  python3 - "$work/out.json" "$work/mem" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); mem_kb = int(open(sys.argv[2]).read().split()[-1])
c = j["count"]; s = c["seconds"]; g = j["games_in_db"]
total = j["elapsed_seconds"]
print("%8d %9.0f %7.1fs %7.1fs %7.1fs %7.1fs %8.0f %9.1f %10.1f" % (
    g, g / total, j["import_seconds"], s["pass1"], s["pass2"], s["commit"], mem_kb / 1024,
    j["disk_bytes"] / 2**20, j["disk_bytes"] / 1024 / (g / 1000)))
print("         patterns per level:", " ".join(str(x) for x in c["patterns_per_level"]),
      "| %s, sketch fill %.2f, %d drains, %d pruned" % (c["mode"], c["sketch_fill"], c.get("drains", c.get("flushes", 0)), c["pruned"]), file=sys.stderr)
PY
done
if [ -n "${SGFPAT_BENCH_KEEP:-}" ]; then
  rm -rf "$SGFPAT_BENCH_KEEP" && mv "$work/db" "$SGFPAT_BENCH_KEEP"
fi
