#!/usr/bin/env bash
# Generates the project's own sample game records by GNU Go self-play:
#   data/gnugo-19x19.sgf   a collection of 19x19 games
#   data/gnugo-9x9.sgf     a collection of 9x9 games
# Each game: GNU Go (level 1) against itself through GTP, `genmove` for each
# side in turn until two passes in a row, a resignation, or a move limit;
# the result RE[] comes from GTP `final_score` (or the resignation).  The
# record is written from the moves (GTP `printsgf` would only give the final
# position as setup stones).  Games are deterministic for a given seed.
#
# Usage: scripts/make-sample-data.sh [--games19 N] [--games9 N] [--out DIR]
# Needs gnugo (apt-get install gnugo); set GNUGO to use another binary.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/data"
games19=12
games9=20
while [[ $# -gt 0 ]]; do
  case "$1" in
    --games19) games19="$2"; shift 2 ;;
    --games9) games9="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: $0 [--games19 N] [--games9 N] [--out DIR]" >&2; exit 2 ;;
  esac
done

GNUGO="${GNUGO:-$(command -v gnugo || echo /usr/games/gnugo)}"
if [[ ! -x "$GNUGO" ]]; then
  echo "gnugo not found: apt-get install gnugo (or set GNUGO)" >&2
  exit 1
fi
mkdir -p "$out"

# GTP vertex (Q16) -> SGF point (pd) on a board of size $2.
sgf_point() {
  local v="${1^^}" size="$2" letters="ABCDEFGHJKLMNOPQRSTUVWXYZ" sgf="abcdefghijklmnopqrstuvwxy"
  local col="${v:0:1}" row="${v:1}"
  local prefix="${letters%%"$col"*}"
  local x=${#prefix} y=$((size - row))
  printf '%s%s' "${sgf:x:1}" "${sgf:y:1}"
}

# Sends one GTP command to the coprocess and sets $reply to the answer text.
gtp() {
  printf '%s\n' "$1" >&"${GG[1]}"
  local line status
  IFS= read -r line <&"${GG[0]}"
  line="${line%$'\r'}"
  status="${line:0:1}"
  reply="${line:2}"
  while IFS= read -r line <&"${GG[0]}"; do  # the answer ends with an empty line
    line="${line%$'\r'}"
    [[ -z "$line" ]] && break
    reply+=$'\n'"$line"
  done
  if [[ "$status" != "=" ]]; then
    echo "GTP command '$1' failed: $reply" >&2
    return 1
  fi
}

# play_game SIZE KOMI SEED MAXMOVES NAME -> one SGF game on stdout.
play_game() {
  local size="$1" komi="$2" seed="$3" max="$4" name="$5"
  coproc GG { exec "$GNUGO" --mode gtp --level 1 --seed "$seed"; }
  local pid="$GG_PID"  # bash unsets GG_PID when the coprocess exits
  gtp "boardsize $size"
  gtp "clear_board"
  gtp "komi $komi"
  local moves="" color="black" passes=0 n=0 result=""
  while (( n < max && passes < 2 )); do
    gtp "genmove $color"
    local v="${reply^^}"
    local c="B"; [[ "$color" == white ]] && c="W"
    if [[ "$v" == "RESIGN" ]]; then
      if [[ "$c" == B ]]; then result="W+Resign"; else result="B+Resign"; fi
      break
    elif [[ "$v" == "PASS" ]]; then
      moves+=";$c[]"
      passes=$((passes + 1))
    else
      moves+=";$c[$(sgf_point "$v" "$size")]"
      passes=0
    fi
    n=$((n + 1))
    if [[ "$color" == black ]]; then color=white; else color=black; fi
  done
  if [[ -z "$result" ]]; then
    gtp "final_score"
    result="$reply"  # B+3.5, W+12.0, or 0 for a draw
  fi
  gtp "quit" || true
  wait "$pid" 2>/dev/null || true
  printf '(;GM[1]FF[4]CA[UTF-8]AP[GNU Go:3.8]SZ[%s]KM[%s]RU[Japanese]PB[GNU Go]PW[GNU Go]RE[%s]GN[%s]%s)\n' \
    "$size" "$komi" "$result" "$name" "$moves"
  echo "  $name: $n moves, $result" >&2
}

make_set() {
  local size="$1" komi="$2" count="$3" max="$4" seed0="$5" file="$6"
  local tmp="$file.tmp"
  : >"$tmp"
  echo "$count games of ${size}x${size} -> $file" >&2
  for ((i = 1; i <= count; i++)); do
    play_game "$size" "$komi" $((seed0 + i)) "$max" "gnugo-${size}x${size}-$i" >>"$tmp"
  done
  mv "$tmp" "$file"
}

make_set 9 7 "$games9" 200 9000 "$out/gnugo-9x9.sgf"
make_set 19 6.5 "$games19" 400 19000 "$out/gnugo-19x19.sgf"
