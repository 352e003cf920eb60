#!/usr/bin/env bash
# Nightly ingest benchmark (issue 77): one archive size end to end.
#
#   bench/nightly.sh [-b SGFPAT_BINARY] [-w GAMES] ARCHIVE... -- NIGHT...
#
# 1. scratch:  a from-scratch ingest of everything (the reference);
# 2. archive:  a from-scratch ingest of the archive alone, then
#    warm-up:  a small night of GAMES games (default 50) that builds the
#              frontier index (the first night after a full count);
# 3. night:    NIGHT... ingested into that database (count.seconds steps:
#              listing, pass2, crossing, commit);
# 4. catch-up: `sgfpat catch-up` after the night.
# Each run prints wall, CPU (user+sys), peak RSS and the 1-minute load
# average before and after it; then the ratios of the night, warm-up and
# catch-up to the from-scratch ingest.
# 5. Correctness: after the night every line of its TSV export is a line
#    of the from-scratch TSV (the pending patterns are the only lines
#    missing); after the catch-up the TSV and priors exports are
#    byte-identical (cmp).
#
# The warm-up games are the last GAMES games of the last ARCHIVE input,
# which must be a collection (one game per line: .sgf, .sgf.gz, .sgf.xz,
# as in the corpus): the archive is that file without them, so every run
# holds the same games (the from-scratch ingest reads the same files).
# -w 0: no warm-up, the night builds the frontier index itself.
#
# Example (606k archive, night tygem-2016-06):
#   c=../shared/corpus
#   bench/nightly.sh $(ls $c/tygem-dev/*.sgf.gz) $c/tygem-2006-01.tar.gz \
#     $(ls $c/tygem-more/*.sgf.xz | grep -v 2016-06) -- $c/tygem-more/tygem-2016-06.sgf.xz
#
# SGFPAT_BENCH_KEEP=DIR keeps the databases and exports in DIR (the
# database before the night is kept as `prenight`, for repeats).
# SGFPAT_BENCH_REPEAT=N runs the night and the catch-up N times each,
# alternated (night, catch-up, night, ...), each on a copy of the database
# before it (cp -a), and prints their medians.
# SGFPAT_BENCH_TIMEOUT=SECONDS bounds each run (default 10800).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/build/sgfpat
warm=50
while [ $# -gt 0 ]; do
  case $1 in
    -b) bin=$2; shift 2 ;;
    -w) warm=$2; shift 2 ;;
    *) break ;;
  esac
done
archive=(); night=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do archive+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
night=("$@")
[ ${#archive[@]} -gt 0 ] && [ ${#night[@]} -gt 0 ] ||
  { echo "usage: $0 [-b BIN] [-w GAMES] ARCHIVE... -- NIGHT..." >&2; exit 2; }
bin=$(readlink -f "$bin")
repeat=${SGFPAT_BENCH_REPEAT:-1}
limit=${SGFPAT_BENCH_TIMEOUT:-10800}
work=${SGFPAT_BENCH_KEEP:-$(mktemp -d /tmp/sgfpat-bench-night-XXXXXX)}
mkdir -p "$work"
[ -n "${SGFPAT_BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
log=$work/figures.txt
: > "$log"
say() { echo "$@" | tee -a "$log"; }

# The warm-up games: cut from the end of the last archive input.
if [ "$warm" -gt 0 ]; then
  last=${archive[-1]}
  case $last in
    *.sgf.gz) cat=zcat ;;
    *.sgf.xz) cat=xzcat ;;
    *.sgf) cat=cat ;;
    *) echo "$0: -w needs the last archive input to be a collection (.sgf, .sgf.gz, .sgf.xz): $last" >&2; exit 2 ;;
  esac
  $cat "$last" > "$work/last.sgf"
  lines=$(wc -l < "$work/last.sgf")
  [ "$lines" -gt "$warm" ] || { echo "$0: $last holds $lines games, not more than $warm" >&2; exit 2; }
  head -n $((lines - warm)) "$work/last.sgf" > "$work/archive-last.sgf"
  tail -n "$warm" "$work/last.sgf" > "$work/warmup.sgf"
  rm "$work/last.sgf"
  archive[-1]=$work/archive-last.sgf
  warmup=("$work/warmup.sgf")
else
  warmup=()
fi

load() { cut -d' ' -f1 /proc/loadavg; }

# run NAME ARGS...: runs sgfpat ARGS --quiet --json, keeps its JSON and
# /usr/bin/time figures (NAME.time: wall user sys peak-KB load-before
# load-after) and prints them.
run() {
  local name=$1; shift
  local l0; l0=$(load)
  timeout "$limit" /usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" \
    "$bin" "$@" --quiet --json > "$work/$name.json"
  echo " $l0 $(load)" >> "$work/$name.time"
  tr '\n' ' ' < "$work/$name.time" > "$work/$name.t" && mv "$work/$name.t" "$work/$name.time"
  python3 - "$name" "$work/$name.time" "$work/$name.json" <<'PY' | tee -a "$log"
import json, sys
name, tpath, jpath = sys.argv[1:]
wall, user, sys_, kb, l0, l1 = open(tpath).read().split()
j = json.load(open(jpath))
c = j.get("count", {}) if isinstance(j.get("count"), dict) else {}
s = c.get("seconds", {})
extra = ""
if "games_in_db" in j:
    extra = "games %7d  new %6d  plan %s  import %.1fs" % (
        j["games_in_db"], j.get("ingested", 0), j.get("count_plan", "?"), j.get("import_seconds", 0))
    if c.get("mode") == "night":
        extra += "  joined %s games replayed %s" % (c.get("joined_patterns"), c.get("replayed_games"))
else:
    extra = " ".join("%s %s" % (k, v) for k, v in j.items() if not isinstance(v, (dict, list)))
print("%-10s wall %7.1fs  cpu %7.1fs  peak %6.0f MB  load %s->%s  %s%s" % (
    name, float(wall), float(user) + float(sys_), int(kb) / 1024, l0, l1, extra,
    ("  steps " + " ".join("%s %.1fs" % (k, v) for k, v in s.items())) if s else ""))
PY
}

# export DB OUT FORMAT: a priors header holds the export time, which
# SOURCE_DATE_EPOCH fixes.
export_db() {
  SOURCE_DATE_EPOCH=0 timeout "$limit" "$bin" export --db "$1" -f "$3" -o "$2" > /dev/null
}

rm -rf "$work/scratch" "$work/prenight" "$work/night" "$work/catchup"
say "sgfpat $("$bin" --version 2>&1 | head -1), $(nproc) cores; archive ${#archive[@]} inputs, warm-up $warm games, night ${#night[@]} inputs"
run scratch ingest --db "$work/scratch" "${archive[@]}" "${warmup[@]}" "${night[@]}"
run archive ingest --db "$work/prenight" "${archive[@]}"
[ "$warm" -gt 0 ] && run warmup ingest --db "$work/prenight" "${warmup[@]}"
for i in $(seq 1 "$repeat"); do
  rm -rf "$work/night"; cp -a "$work/prenight" "$work/night"
  run night-$i ingest --db "$work/night" "${night[@]}"
  rm -rf "$work/catchup"; cp -a "$work/night" "$work/catchup"
  run catchup-$i catch-up --db "$work/catchup"
done
python3 - "$work" "$repeat" "$warm" <<'PY' | tee -a "$log"
import statistics, sys
w, repeat, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def t(n):
    wall, u, s, kb, l0, l1 = open(f"{w}/{n}.time").read().split()
    return float(wall), float(u) + float(s)
sw, sc = t("scratch")
rows = [("archive", [t("archive")])]
if warm:
    rows.append(("warmup", [t("warmup")]))
rows += [("night", [t("night-%d" % i) for i in range(1, repeat + 1)]),
         ("catch-up", [t("catchup-%d" % i) for i in range(1, repeat + 1)])]
for name, runs in rows:
    mw = statistics.median(r[0] for r in runs); mc = statistics.median(r[1] for r in runs)
    print("%-9s / from scratch: wall %5.1f%%  cpu %5.1f%%%s" % (
        name, 100 * mw / sw, 100 * mc / sc, "  (medians of %d)" % len(runs) if len(runs) > 1 else ""))
PY

# Correctness.  The night's TSV lines are a subset of the from-scratch
# TSV's; both are written in key order, so a subsequence check is one
# pass (sort and comm if the orders differ).
export_db "$work/scratch" "$work/scratch.tsv" tsv
export_db "$work/night" "$work/night.tsv" tsv
subset=$(python3 - "$work/night.tsv" "$work/scratch.tsv" <<'PY'
import sys
with open(sys.argv[1], "rb") as a, open(sys.argv[2], "rb") as b:
    n = m = 0
    for line in a:
        n += 1
        for other in b:
            m += 1
            if other == line:
                break
        else:
            print("not-in-order"); sys.exit()
    m += sum(1 for _ in b)
    print("%d %d" % (n, m))
PY
)
if [ "$subset" = not-in-order ]; then
  extra=$(LC_ALL=C comm -23 <(LC_ALL=C sort -S 1G "$work/night.tsv") <(LC_ALL=C sort -S 1G "$work/scratch.tsv") | wc -l)
  n=$(wc -l < "$work/night.tsv"); m=$(wc -l < "$work/scratch.tsv")
else
  extra=0; read -r n m <<< "$subset"
fi
if [ "$extra" -eq 0 ]; then
  say "after the night: its TSV ($n lines) is a subset of the from-scratch TSV ($m lines): $((m - n)) lines pending"
else
  say "after the night: $extra lines of its TSV are NOT in the from-scratch TSV"; exit 1
fi
rm -f "$work/night.tsv"
status=0
for fmt in tsv priors; do
  [ -f "$work/scratch.$fmt" ] || export_db "$work/scratch" "$work/scratch.$fmt" "$fmt"
  export_db "$work/catchup" "$work/catchup.$fmt" "$fmt"
  if cmp -s "$work/catchup.$fmt" "$work/scratch.$fmt"; then
    say "after the catch-up: $fmt exports identical ($(wc -c < "$work/scratch.$fmt") bytes)"
  else
    say "after the catch-up: $fmt exports DIFFER"; status=1
  fi
  rm -f "$work/catchup.$fmt"
done
exit $status
