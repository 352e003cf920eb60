#!/usr/bin/env bash
# Submits a sharded count to Slurm: the plan is made here (at once), then
# one job array per shard step (one task per shard) and one job per combine
# step, each depending on the one before (afterok; a failure cancels the
# rest).  The steps are those of scripts/sharded-ingest.sh (docs/scaling.md,
# "Shards").
#
#   scripts/slurm/submit.sh --shards N --work W --db D [options] INPUTS...
#
#   --shards N       number of shards (required)
#   --work W         work folder on a file system every node sees (required)
#   --db D           the database to make, ditto (must not exist) (required)
#   --memory-mb M    memory of each shard task, MiB (default 4096; also --mem)
#   --threads T      threads (= --cpus-per-task) of each task (default 2)
#   --count-parts Q  count each shard's kept set in Q tasks, each holding 1/Q
#                    of it (the count array then has N x Q tasks; default 1)
#   --partition P    Slurm partition (default: the cluster's default)
#   --sgfpat PATH    the sgfpat binary, as every node sees it (default: which sgfpat)
#   --wait           wait for the last job; exit 0 when the database is made
#   --levels, --min-played, --no-symmetry, --sizes, --skip-handicap,
#   --min-rank, --sketch-mb   as for `sgfpat shard plan`
# Prints the job ids (the last is the finish job).  Logs: W/logs/ (each
# step's --json line, then its messages).  With --wait, closes with the
# table of scripts/sharded-ingest.sh (per step: wall time from the first
# task's start to the last one's end, slowest task, peak memory, bytes).
# Exit codes: 0 submitted (or, with --wait, done); 1 a submission or, with
# --wait, a job failed; 2 usage; 3 (with --wait) done, but some input could
# not be read.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "slurm/submit: $*" >&2; exit "${2:-1}"; }

shards="" work="" db="" memory=4096 threads=2 partition="" sgfpat="" wait=0 count_parts=1
plan_args=() inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards="${2:-}"; shift 2 ;;
    --work) work="${2:-}"; shift 2 ;;
    --db) db="${2:-}"; shift 2 ;;
    --memory-mb) memory="${2:-}"; shift 2 ;;
    --threads) threads="${2:-}"; shift 2 ;;
    --count-parts) count_parts="${2:-}"; shift 2 ;;
    --partition) partition="${2:-}"; shift 2 ;;
    --sgfpat) sgfpat="${2:-}"; shift 2 ;;
    --wait) wait=1; shift ;;
    --levels|-L|--min-played|--sizes|--min-rank|--sketch-mb) plan_args+=("$1" "${2:-}"); shift 2 ;;
    --no-symmetry|--skip-handicap) plan_args+=("$1"); shift ;;
    -h|--help) usage ;;
    --) shift; inputs+=("$@"); break ;;
    -*) echo "slurm/submit: unknown option $1" >&2; usage ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "slurm/submit: --shards N is required" >&2; usage; }
[[ "$count_parts" =~ ^[1-9][0-9]*$ ]] && [ "$count_parts" -le 64 ] || { echo "slurm/submit: --count-parts Q wants 1..64" >&2; usage; }
[ -n "$work" ] && [ -n "$db" ] || { echo "slurm/submit: --work and --db are required" >&2; usage; }
[ ${#inputs[@]} -gt 0 ] || { echo "slurm/submit: no inputs" >&2; usage; }
sgfpat="${sgfpat:-$(command -v sgfpat)}"
[ -x "$sgfpat" ] || die "no sgfpat binary: give --sgfpat PATH" 2
command -v sbatch >/dev/null || die "sbatch not found: is Slurm installed here?" 2
sgfpat="$(cd "$(dirname "$sgfpat")" && pwd)/$(basename "$sgfpat")"
[ -e "$db" ] && die "$db already exists" 2
mkdir -p "$work/logs" || die "cannot create $work"
work="$(cd "$work" && pwd)"
case "$db" in /*) ;; *) db="$(pwd)/$db" ;; esac
rm -f "$work/input-problems"

"$sgfpat" shard plan --work "$work" --shards "$shards" "${plan_args[@]}" "${inputs[@]}" >"$work/logs/plan.log" 2>&1 || {
  rc=$?
  cat "$work/logs/plan.log" >&2
  die "the plan failed (exit $rc)" $rc
}

common=(--parsable --kill-on-invalid-dep=yes --chdir="$work")
[ -n "$partition" ] && common+=(--partition="$partition")
last=""
# submit NAME ARRAY(0, or tasks per shard) STEP [ARGS...]: echoes the job id.
# A task per shard and part: task t is part t % Q + 1 of shard t / Q
# (shard-step.sbatch reads Q from SGFPAT_PARTS).
submit() {
  local name="$1" array="$2" step="$3"; shift 3
  local opts=("${common[@]}" --job-name="sgfpat-$name")
  if [ "$array" != 0 ]; then
    opts+=(--array="0-$((shards * array - 1))" --export="ALL,SGFPAT_PARTS=$array")
    opts+=(--cpus-per-task="$threads" --mem="${memory}M" --output="$work/logs/%x-%a.out")
  else
    opts+=(--output="$work/logs/%x.out")
  fi
  [ -n "$last" ] && opts+=(--dependency="afterok:$last")
  local id
  id=$(sbatch "${opts[@]}" "$here/shard-step.sbatch" "$sgfpat" "$work" "$step" --json "$@") || die "sbatch of $name failed"
  last="${id%%;*}"
  jobs+=("$name:$last")
  echo "$name $last"
}
jobs=()
run_opts=(--memory-mb "$memory" --threads "$threads" --progress)
submit import 1 import "${run_opts[@]}" || exit 1
submit sum-sketches 0 sum-sketches || exit 1
submit kept 1 kept "${run_opts[@]}" || exit 1
submit merge-kept 0 merge-kept || exit 1
submit count "$count_parts" count "${run_opts[@]}" || exit 1
# finish runs where the combined database's memory is: one task, all threads
common+=(--cpus-per-task="$threads" --mem="${memory}M")
submit finish 0 finish --db "$db" "${run_opts[@]}" || exit 1
[ $wait -eq 1 ] || exit 0

# Wait for the finish job: it completes, or fails, or is cancelled because a
# step before it failed.
while :; do
  state=$(scontrol show job "$last" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1)
  case "$state" in
    COMPLETED) break ;;
    PENDING|RUNNING|CONFIGURING|COMPLETING|"") sleep 1 ;;
    *) echo "slurm/submit: the finish job $last ended $state; logs in $work/logs:" >&2
       grep -H "^sgfpat shard: " "$work/logs/"*.out 2>/dev/null | head -5 >&2
       exit 1 ;;
  esac
done
[ -d "$db" ] || die "the finish job completed but $db is missing"

# job_wall ID: seconds from the first task's start to the last one's end.
job_wall() {
  scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n 's/^\(StartTime\|EndTime\)=//p' |
    while read -r t; do date -d "$t" +%s; done | sort -n | sed -n '1p;$p' | paste -sd' ' |
    awk '{ print ($2 > $1) ? $2 - $1 : 0 }'
}
source "$here/../shard-report.sh"
{
  shard_report_header
  for j in "${jobs[@]}"; do
    name="${j%%:*}"
    shard_report_row "$name" "$(job_wall "${j#*:}")" "$work/logs/sgfpat-$name".out "$work/logs/sgfpat-$name"-*.out
  done
} >&2
if [ -e "$work/input-problems" ]; then
  echo "slurm/submit: some input could not be read (see $work/logs/sgfpat-import-*.out): exit code 3" >&2
  exit 3
fi
exit 0
