#!/usr/bin/env bash
# Benchmarks of `sgfpat serve` (the figures of docs/serve.md), over
# loopback WebSockets with build/bench_serve:
#
#   bench/serve.sh load [SGFPAT_BINARY]
#     GAMES (200) network games at once, MOVES (100) moves and two passes
#     each, every move synced to --games-dir before it is acknowledged:
#     moves/s, round trip p50/p99, the server's peak memory; then the
#     server is killed (SIGKILL), started again on the same --games-dir and
#     every game is checked move for move (lost, duplicated, changed).
#   bench/serve.sh explore DB PRIORS SGF [SGFPAT_BINARY]
#     The explorer on 19x19 positions of the games of SGF (one game a line;
#     games the database has not seen, e.g. tygem-2006-01's): the heat map
#     (the priors' model when it has one), the pattern panel and the exact
#     position search, REPEAT (3) rounds; medians and p90 of the server's
#     time and of the round trip, and the server's peak memory.
#
# Every wait is bounded; the servers this script starts are stopped on exit.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
part=${1:?usage: bench/serve.sh load|explore ...}
shift
work=$(mktemp -d /tmp/sgfpat-bench-serve-XXXXXX)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# start_server ARGS...: sets server_pid and port, once the URL is printed (60 s at most).
start_server() {
  : >"$work/out"
  "$bin" serve --port 0 "$@" >"$work/out" 2>>"$work/err" &
  server_pid=$!
  for _ in $(seq 600); do
    port=$(sed -n 's|^sgfpat serve: http://127.0.0.1:\([0-9]*\)/$|\1|p' "$work/out")
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/err" >&2; echo "sgfpat serve exited" >&2; exit 1; }
    sleep 0.1
  done
  echo "sgfpat serve printed no URL within 60 s" >&2
  exit 1
}
peak_mb() { awk '/^VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status"; }
stop_server() {  # SIGTERM, 30 s at most
  kill -TERM "$server_pid"
  for _ in $(seq 300); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$server_pid" 2>/dev/null && { echo "sgfpat serve did not stop within 30 s" >&2; exit 1; }
  wait "$server_pid" || true
  server_pid=
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
case "$part" in
  load)
    bin=${1:-$here/build/sgfpat}
    bench=$(dirname "$bin")/bench_serve
    games=${GAMES:-200}
    moves=${MOVES:-100}
    # The limits a page is held to are for one player; here one address
    # plays GAMES games as fast as the server answers.
    limits=(--games-dir "$work/games" --max-games $((games + 10)) --max-connections-per-address $((3 * games + 10))
            --messages-per-second 1000 --message-burst 1000)
    start_server "${limits[@]}"
    timeout 1200 "$bench" load --port "$port" --games "$games" --moves "$moves" --out "$work/links"
    echo "server peak memory: $(peak_mb) MiB resident; records: $(du -sh "$work/games" | cut -f1) in $(ls "$work/games" | wc -l) files"
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    echo "killed (SIGKILL); started again on the same --games-dir:"
    start_server "${limits[@]}"
    timeout 600 "$bench" verify --port "$port" --in "$work/links" --moves "$moves"
    stop_server
    ;;
  explore)
    db=${1:?DB}
    priors=${2:?PRIORS}
    sgf=${3:?SGF}
    bin=${4:-$here/build/sgfpat}
    bench=$(dirname "$bin")/bench_serve
    # One client asks as fast as the server answers: above a page's rate.
    start_server --db "$db" --priors "$priors" --messages-per-second 1000 --message-burst 1000
    timeout 3600 "$bench" explore --port "$port" --sgf "$sgf" --repeat "${REPEAT:-3}" --at "${AT:-30,80,150}"
    echo "server peak memory: $(peak_mb) MiB resident"
    stop_server
    ;;
  *)
    echo "usage: bench/serve.sh load|explore ..." >&2
    exit 2
    ;;
esac
