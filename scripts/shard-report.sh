# Sourced by scripts/sharded-ingest.sh and scripts/slurm/submit.sh: the
# closing table of a sharded count, from the steps' --json lines.
#
#   shard_report_header
#   shard_report_row STEP WALL_SECONDS LOG...   # one row over the step's logs

# json_field LOG NAME: the numeric field NAME of the step's JSON line.
json_field() { grep -o "\"$2\":[0-9.e+-]*" "$1" 2>/dev/null | head -1 | cut -d: -f2; }

shard_report_header() { echo "step          wall s  slowest s  peak MiB  files MiB  storage MiB"; }

# The step's wall time, and over its logs the slowest process, the largest
# peak memory and the bytes written in all.
shard_report_row() {
  local step="$1" wall="$2" slowest=0 rss=0 bytes=0 storage=0 f v
  shift 2
  for f in "$@"; do
    [ -f "$f" ] || continue
    v=$(json_field "$f" seconds); slowest=$(awk -v a="$slowest" -v b="${v:-0}" 'BEGIN{print (b>a)?b:a}')
    v=$(json_field "$f" peak_rss_bytes); [ "${v:-0}" -gt "$rss" ] && rss=$v
    v=$(json_field "$f" bytes_written); bytes=$((bytes + ${v:-0}))
    v=$(json_field "$f" storage_bytes_written); storage=$((storage + ${v:-0}))
  done
  printf '%-13s %8.1f %9.1f %9d %11d %11d\n' "$step" "$wall" "$slowest" $((rss >> 20)) $((bytes >> 20)) $((storage >> 20))
}
