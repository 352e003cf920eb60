#!/usr/bin/env bash
# Incremental ingest benchmark: a database of BASE inputs gets ADD inputs
# (an incremental count), against a from-scratch ingest of both.  Prints
# wall and CPU time (user+sys) and peak memory of each run, the ratio of
# the incremental run to the from-scratch one, and checks that both
# databases export the same TSV (or priors) byte for byte.
#
#   bench/incremental.sh [-b SGFPAT_BINARY] BASE... -- ADD... [-- ADD2... ...]
#
# Each `-- ADD...` group is one night: with several, the nights are
# ingested one after the other into the same database (a simulated month
# of nightly runs: the cost of a night against the archive's size), and the
# from-scratch ingest and the comparison are of everything.
#
# Example (the issue 12 figure: tygem-2006-01 on the first 14 months):
#   c=../shared/corpus; bench/incremental.sh $(ls $c/tygem-dev/*.sgf.gz | head -14) -- $c/tygem-2006-01.tar.gz
# SGFPAT_BENCH_KEEP=DIR keeps the databases in DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/build/sgfpat
if [ "${1:-}" = -b ]; then bin=$2; shift 2; fi
base=(); add=(); nights=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do base+=("$1"); shift; done
while [ "${1:-}" = -- ]; do
  shift
  night=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do night+=("$1"); add+=("$1"); shift; done
  [ ${#night[@]} -gt 0 ] && nights+=("$(printf '%q ' "${night[@]}")")
done
[ ${#base[@]} -gt 0 ] && [ ${#add[@]} -gt 0 ] || { echo "usage: $0 [-b BIN] BASE... -- ADD... [-- ADD...]" >&2; exit 2; }
work=${SGFPAT_BENCH_KEEP:-$(mktemp -d /tmp/sgfpat-bench-incr-XXXXXX)}
mkdir -p "$work"
[ -n "${SGFPAT_BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# run NAME ARGS...: runs sgfpat, keeps its JSON and /usr/bin/time figures.
run() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" "$bin" "$@" --quiet --json > "$work/$name.json"
  read -r wall user sys kb < "$work/$name.time"
  python3 - "$name" "$wall" "$user" "$sys" "$kb" "$work/$name.json" <<'PY'
import json, sys
name, wall, user, sys_, kb, path = sys.argv[1:]
j = json.load(open(path)); c = j.get("count", {}); s = c.get("seconds", {})
print("%-12s wall %7.1fs  cpu %7.1fs  peak %6.0f MB  games %7d  new %6d  plan %-11s catch-up keys %s  steps %s" % (
    name, float(wall), float(user) + float(sys_), int(kb) / 1024, j["games_in_db"], j["ingested"],
    j.get("count_plan", "?"), c.get("catchup_keys", "-"),
    " ".join("%s %.1fs" % (k, v) for k, v in s.items())))
PY
}

rm -rf "$work/base" "$work/incremental" "$work/scratch"
run base ingest --db "$work/base" "${base[@]}"
cp -a "$work/base" "$work/incremental"
n=0
for night in "${nights[@]}"; do
  n=$((n + 1))
  eval "files=($night)"
  name=incremental; [ ${#nights[@]} -gt 1 ] && name=night-$n
  run "$name" ingest --db "$work/incremental" "${files[@]}"
done
run scratch ingest --db "$work/scratch" "${base[@]}" "${add[@]}"
python3 - "$work" "${#nights[@]}" <<'PY'
import sys
w, nights = sys.argv[1], int(sys.argv[2])
def t(n):
    wall, u, s, kb = open(f"{w}/{n}.time").read().split()
    return float(wall), float(u) + float(s)
names = ["incremental"] if nights == 1 else ["night-%d" % i for i in range(1, nights + 1)]
sw, sc = t("scratch")
for n in names:
    iw, ic = t(n)
    print("%-12s / from scratch of everything: wall %.1f%%, cpu %.1f%%" % (n, 100 * iw / sw, 100 * ic / sc))
PY
# TSV spells every pattern by replaying games (minutes on 100k games):
# SGFPAT_BENCH_FORMAT=priors compares the priors files instead.
fmt=${SGFPAT_BENCH_FORMAT:-tsv}
# A priors header holds the export time: SOURCE_DATE_EPOCH fixes it.
SOURCE_DATE_EPOCH=0 "$bin" export --db "$work/incremental" -f "$fmt" -o "$work/incremental.$fmt" > /dev/null 2>&1
SOURCE_DATE_EPOCH=0 "$bin" export --db "$work/scratch" -f "$fmt" -o "$work/scratch.$fmt" > /dev/null 2>&1
if cmp -s "$work/incremental.$fmt" "$work/scratch.$fmt"; then
  echo "$fmt exports identical ($(wc -c < "$work/scratch.$fmt") bytes)"
else
  echo "$fmt exports DIFFER" >&2; exit 1
fi
