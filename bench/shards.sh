#!/usr/bin/env bash
# Figures of a sharded count: a single-machine ingest of INPUTS, then for
# each N of SHARD_COUNTS the steps of `sgfpat shard`, each shard step run
# once per shard one after the other (so that each worker is measured
# alone: on a cluster the step's wall time is the slowest shard's), under
# /usr/bin/time -v.  Prints one line per process: step, shard, wall s,
# CPU s (user+sys), peak RSS MB, bytes written; and checks that every
# sharded database's TSV export equals the single one's.
#
#   bench/shards.sh OUT_DIR "2 4" INPUTS...
# Environment: SGFPAT (binary, default build/sgfpat), MEMORY_MB (per
# worker, 1024), THREADS (per worker, 1), SKETCH_MB (64).
set -euo pipefail
out="$1" counts="$2"; shift 2
sgfpat="${SGFPAT:-$(dirname "$0")/../build/sgfpat}"
mem="${MEMORY_MB:-1024}" threads="${THREADS:-1}" sketch="${SKETCH_MB:-64}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# measure NAME SHARD OUTPUT_PATH CMD...: one line of figures.
measure() {
  local name="$1" shard="$2" output="$3"; shift 3
  /usr/bin/time -v -o "$out/time.txt" "$@" >"$out/$name-$shard.log" 2>&1 || { cat "$out/$name-$shard.log" >&2; exit 1; }
  local wall cpu rss bytes
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$out/time.txt")
  cpu=$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{print u+s}' "$out/time.txt")
  rss=$(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$out/time.txt")
  bytes=$(du -sb "$output" 2>/dev/null | cut -f1)
  printf "%-13s %5s %8.1f %8.1f %7s %12s\n" "$name" "$shard" "$wall" "$cpu" "$rss" "${bytes:-0}"
}

printf "%-13s %5s %8s %8s %7s %12s\n" step shard wall_s cpu_s rss_MB bytes_written
measure ingest - "$out/single" "$sgfpat" ingest --db "$out/single" -q --memory-mb "$mem" --threads "$threads" "$@"
"$sgfpat" export --db "$out/single" -f tsv -o "$out/single.tsv" 2>/dev/null
for n in $counts; do
  w="$out/work$n" db="$out/sharded$n"
  rm -rf "$w" "$db"
  echo "# $n shards"
  "$sgfpat" shard plan --work "$w" --shards "$n" --sketch-mb "$sketch" -q "$@"
  for ((i = 0; i < n; i++)); do
    measure import "$i" "$w/shard-$i" "$sgfpat" shard import --work "$w" --shard "$i" -q --memory-mb "$mem" --threads "$threads"
  done
  measure sum-sketches - "$w/played.sketch" "$sgfpat" shard sum-sketches --work "$w"
  for ((i = 0; i < n; i++)); do
    measure kept "$i" "$w/shard-$i/kept.records" "$sgfpat" shard kept --work "$w" --shard "$i" --memory-mb "$mem" --threads "$threads"
  done
  measure merge-kept - "$w/kept.records" "$sgfpat" shard merge-kept --work "$w"
  for ((i = 0; i < n; i++)); do
    measure count "$i" "$w/shard-$i/counts.records" "$sgfpat" shard count --work "$w" --shard "$i" --memory-mb "$mem" --threads "$threads"
  done
  measure finish - "$db" "$sgfpat" shard finish --work "$w" --db "$db" --memory-mb "$mem" --threads "$threads"
  "$sgfpat" export --db "$db" -f tsv -o "$out/sharded$n.tsv" 2>/dev/null
  if cmp -s "$out/single.tsv" "$out/sharded$n.tsv"; then echo "# $n shards: TSV export identical to the single ingest"
  else echo "# $n shards: TSV export DIFFERS"; exit 1; fi
done
