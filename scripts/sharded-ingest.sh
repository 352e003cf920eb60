#!/usr/bin/env bash
# Counts SGF inputs in N shards run as separate local processes, then
# combines them: the same steps (`sgfpat shard ...`) a cluster scheduler
# runs (scripts/slurm/), and the same database `sgfpat ingest` would make.
#
#   scripts/sharded-ingest.sh --workers N --db D [options] INPUTS...
#
# Options:
#   --workers N       shards, run N at a time (required)
#   --db D            the database to make (must not exist) (required)
#   --work W          work folder (default D.work; kept on failure or input problems, else removed unless --keep-work)
#   --memory-mb M     memory of each worker process (default 2048)
#   --threads T       threads of each worker (default 1)
#   --count-parts Q   count each shard's kept set in Q processes, each holding
#                     1/Q of it (N x Q count processes, N at a time; default 1)
#   --keep-work       keep the work folder after success
#   --sgfpat PATH     the sgfpat binary (default: $SGFPAT or sgfpat on PATH)
#   --levels, --min-played, --no-symmetry, --sizes, --skip-handicap,
#   --min-rank, --sketch-mb   as for `sgfpat shard plan`
# At the end a table on stderr gives, per step, its wall time, the slowest
# process's own time, the largest peak memory of a process, and the bytes
# the step wrote (its files, and to storage as the kernel counts them).
# Exit codes: 0 done; 1 a step failed (its log is named); 2 usage;
# 3 done, but some input could not be read (as for ingest).
# A failed or killed run can be run again with the same arguments: every
# step redoes only its own, atomically written output.
set -uo pipefail

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "sharded-ingest: $*" >&2; exit "${2:-1}"; }

workers="" db="" work="" memory=2048 threads=1 keep=0 sgfpat="${SGFPAT:-sgfpat}" count_parts=1
plan_args=() inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers="${2:-}"; shift 2 ;;
    --db) db="${2:-}"; shift 2 ;;
    --work) work="${2:-}"; shift 2 ;;
    --memory-mb) memory="${2:-}"; shift 2 ;;
    --threads) threads="${2:-}"; shift 2 ;;
    --count-parts) count_parts="${2:-}"; shift 2 ;;
    --keep-work) keep=1; shift ;;
    --sgfpat) sgfpat="${2:-}"; shift 2 ;;
    --levels|-L|--min-played|--sizes|--min-rank|--sketch-mb) plan_args+=("$1" "${2:-}"); shift 2 ;;
    --no-symmetry|--skip-handicap) plan_args+=("$1"); shift ;;
    -h|--help) usage ;;
    --) shift; inputs+=("$@"); break ;;
    -*) echo "sharded-ingest: unknown option $1" >&2; usage ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[[ "$workers" =~ ^[1-9][0-9]*$ ]] || { echo "sharded-ingest: --workers N (N >= 1) is required" >&2; usage; }
[ -n "$db" ] || { echo "sharded-ingest: --db D is required" >&2; usage; }
[[ "$count_parts" =~ ^[1-9][0-9]*$ ]] && [ "$count_parts" -le 64 ] || { echo "sharded-ingest: --count-parts Q wants 1..64" >&2; usage; }
[ ${#inputs[@]} -gt 0 ] || { echo "sharded-ingest: no inputs" >&2; usage; }
command -v "$sgfpat" >/dev/null 2>&1 || die "cannot run sgfpat ('$sgfpat'): give --sgfpat PATH or set SGFPAT" 2
[ -e "$db" ] && [ -n "$(ls -A "$db" 2>/dev/null)" ] && die "$db already exists: the sharded ingest makes a new database" 2
work="${work:-$db.work}"
mkdir -p "$work/logs" || die "cannot create $work"
logs="$work/logs"
bad_input=0

# run NAME CMD...: one step, its output in $logs/NAME.log.
run() {
  local name="$1"; shift
  "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  if [ $rc -eq 3 ]; then bad_input=1; return 0; fi
  [ $rc -eq 0 ] || { echo "sharded-ingest: step $name failed (exit $rc); see $logs/$name.log:" >&2; tail -5 "$logs/$name.log" >&2; }
  return $rc
}

# each STEP [Q]: the step for every shard (and, for count, each of its Q
# parts), N processes at a time.
each() {
  local step="$1" q="${2:-1}" pids=() failed=0 i p
  for ((i = 0; i < workers; i++)); do
    for ((p = 1; p <= q; p++)); do
      local name="$step-$i" part=()
      [ "$q" -gt 1 ] && name="$step-$i-$p" && part=(--part "$p/$q")
      if [ ${#pids[@]} -ge "$workers" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
      fi
      run "$name" "$sgfpat" shard "$step" --work "$work" --shard "$i" "${part[@]}" --memory-mb "$memory" --threads "$threads" --json &
      pids+=($!)
    done
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
  done
  [ $failed -eq 0 ] || exit 1
  # wait loses the exit code 3 marks of the subshells: read them from the logs
  grep -q '"exit_code":3' "$logs/$step-"*.log 2>/dev/null && bad_input=1
  return 0
}

# shard_report_header, shard_report_row, json_field
source "$(dirname "$0")/shard-report.sh"
steps_report=()
record() { steps_report+=("$(shard_report_row "$1" "$2" "$logs/$1".log "$logs/$1"-*.log)"); }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

t0=$(date +%s)
"$sgfpat" shard plan --work "$work" --shards "$workers" "${plan_args[@]}" "${inputs[@]}" >"$logs/plan.log" 2>&1 || {
  rc=$?
  echo "sharded-ingest: the plan failed (exit $rc):" >&2
  cat "$logs/plan.log" >&2
  exit $rc
}
echo "sharded-ingest: $workers shards in $work" >&2
ts=$(now); each import; record import "$(since "$ts")"
ts=$(now); run sum-sketches "$sgfpat" shard sum-sketches --work "$work" --json || exit 1; record sum-sketches "$(since "$ts")"
ts=$(now); each kept; record kept "$(since "$ts")"
ts=$(now); run merge-kept "$sgfpat" shard merge-kept --work "$work" --json || exit 1; record merge-kept "$(since "$ts")"
ts=$(now); each count "$count_parts"; record count "$(since "$ts")"
ts=$(now)
run finish "$sgfpat" shard finish --work "$work" --db "$db" --memory-mb "$memory" --threads "$threads" --json || exit 1
record finish "$(since "$ts")"
echo "$db: $(json_field "$logs/finish.log" games) games counted in $workers shards, $(json_field "$logs/finish.log" kept_keys) patterns kept"
{
  shard_report_header
  printf '%s\n' "${steps_report[@]}"
  echo "sharded-ingest: done in $(( $(date +%s) - t0 )) s"
} >&2
if [ $bad_input -ne 0 ]; then
  echo "sharded-ingest: some input could not be read (see $logs/import-*.log): exit code 3" >&2
  exit 3
fi
if [ $keep -eq 0 ]; then rm -rf "$work"; fi
exit 0
