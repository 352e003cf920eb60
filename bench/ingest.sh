#!/usr/bin/env bash
# Ingestion benchmark: fresh databases from growing prefixes of a corpus
# (default tygem-dev: 10k games, ~50k games, all), L=10, symmetry on,
# threshold 2, both counting passes.  Prints games/s, the time split,
# peak memory and database size per 1,000 games for each size.
#
#   bench/ingest.sh [SGFPAT_BINARY] [CORPUS] [SIZES...]
#
# CORPUS is one or more paths joined by ':' (folders of .sgf.gz/.sgf.xz
# collections, such files, .tar.gz archives of .sgf files), read in that
# order; SIZES are game counts or "all".  The whole collection:
#   bench/ingest.sh build/sgfpat ../shared/corpus/tygem-dev:../shared/corpus/tygem-2006-01.tar.gz:../shared/corpus/tygem-more 10000 100000 286655 all
#
# SGFPAT_BENCH_KEEP=DIR keeps the database of each size in DIR/SIZE.
# MEMORY_MB and THREADS are passed to ingest (default: its own).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/sgfpat}
corpus=${2:-$here/../shared/corpus/tygem-dev}
shift $(( $# > 2 ? 2 : $# )) || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 50000 all)
work=$(mktemp -d /tmp/sgfpat-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

printf '%8s %8s %9s %8s %8s %8s %8s %8s %9s %10s\n' games wall 'games/s' import pass1 pass2 commit 'peak MB' 'db MB' 'KB/1000g'
# Every game of CORPUS on stdout, one per line (the corpus's own format).
games() {
  local IFS=:
  for path in $corpus; do
    if [ -d "$path" ]; then
      for f in "$path"/*.sgf.gz "$path"/*.sgf.xz; do [ -e "$f" ] && games_of "$f"; done
    else
      games_of "$path"
    fi
  done
}
games_of() {
  case "$1" in
    *.tar.gz) tar -xzOf "$1" ;;
    *.gz) zcat "$1" ;;
    *.xz) xzcat "$1" ;;
    *) cat "$1" ;;
  esac
}
extra=()
[ -n "${MEMORY_MB:-}" ] && extra+=(--memory-mb "$MEMORY_MB")
[ -n "${THREADS:-}" ] && extra+=(--threads "$THREADS")
for n in "${sizes[@]}"; do
  input="$work/input.sgf"
  if [ "$n" = all ]; then
    games > "$input"
  else
    # The readers die of SIGPIPE when head has enough: not an error here.
    { games || true; } | head -n "$n" > "$input"
  fi
  rm -rf "$work/db"
  /usr/bin/time -f '%M' -o "$work/mem" "$bin" ingest --db "$work/db" --quiet --json "${extra[@]}" "$input" > "$work/out.json"
  python3 - "$work/out.json" "$work/mem" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); mem_kb = int(open(sys.argv[2]).read().split()[-1])
c = j["count"]; s = c["seconds"]; g = j["games_in_db"]
total = j["elapsed_seconds"]
print("%8d %7.1fs %9.0f %7.1fs %7.1fs %7.1fs %7.1fs %8.0f %9.1f %10.1f" % (
    g, total, g / total, j["import_seconds"], s["pass1"], s["pass2"], s["commit"], mem_kb / 1024,
    j["disk_bytes"] / 2**20, j["disk_bytes"] / 1024 / (g / 1000)))
print("         patterns per level:", " ".join(str(x) for x in c["patterns_per_level"]),
      "| %s, %d kept keys, sketch fill %.2f, %d drains, %d pruned" % (c["mode"], c["kept_keys"], c["sketch_fill"], c.get("drains", c.get("flushes", 0)), c["pruned"]), file=sys.stderr)
PY
  if [ -n "${SGFPAT_BENCH_KEEP:-}" ]; then
    mkdir -p "$SGFPAT_BENCH_KEEP" && rm -rf "${SGFPAT_BENCH_KEEP:?}/$n" && mv "$work/db" "$SGFPAT_BENCH_KEEP/$n"
  fi
done
