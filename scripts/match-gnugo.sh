#!/usr/bin/env bash
# Plays `sgfpat gtp` against GNU Go and reports the win rate.
#
#   scripts/match-gnugo.sh [-g GAMES] [-p PLAYOUTS] [-t THREADS] [-P PRIORS]
#                          [-s SIZE] [-k KOMI] [-l GNUGO_LEVEL] [-o SGF_DIR]
#                          [-b SGFPAT_BINARY] [-x "extra sgfpat gtp flags"]
#
# Defaults: 20 games on 9x9, komi 7.5, Chinese rules, 2000 playouts on 1
# thread, GNU Go level 0.  Colours alternate (sgfpat takes Black in odd
# games).  A small python3 referee relays the moves between the two GTP
# processes; a game ends after two passes in a row, a resignation or
# 4*SIZE*SIZE moves, and GNU Go's final_score decides it (dead stones
# removed by GNU Go).  Every game is written as SGF to SGF_DIR (default
# match-<date>/ in the current directory), printed as one line, then a
# summary: wins/games, the win rate with its 95% Wilson interval, and the
# wins as Black and as White.
# The engine's tuning settings (tree policy, c-puct, playouts' tactics ...)
# are not flags: put them in the [gtp] section of a configuration file and
# run the script with SGFPAT_CONFIG=FILE, which the engine inherits.
# GNU Go is looked up as $GNUGO, on PATH, then as /usr/games/gnugo (where
# Debian installs it).  Exit code 0 after a full match, 1 on a setup error.
set -euo pipefail

GAMES=20
PLAYOUTS=2000
THREADS=1
PRIORS=""
LEVEL=0
SIZE=9
KOMI=7.5
EXTRA=""
OUT=""
HERE="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${SGFPAT_BINARY:-$HERE/build/sgfpat}"
while getopts "g:p:t:P:b:l:s:k:o:x:h" opt; do
  case "$opt" in
    g) GAMES="$OPTARG" ;;
    p) PLAYOUTS="$OPTARG" ;;
    t) THREADS="$OPTARG" ;;
    P) PRIORS="$OPTARG" ;;
    b) BIN="$OPTARG" ;;
    l) LEVEL="$OPTARG" ;;
    s) SIZE="$OPTARG" ;;
    k) KOMI="$OPTARG" ;;
    o) OUT="$OPTARG" ;;
    x) EXTRA="$OPTARG" ;;
    *) sed -n '2,18p' "$0"; exit 2 ;;
  esac
done
GNUGO_BIN="${GNUGO:-}"
if [ -z "$GNUGO_BIN" ]; then
  GNUGO_BIN="$(command -v gnugo || true)"
  [ -z "$GNUGO_BIN" ] && [ -x /usr/games/gnugo ] && GNUGO_BIN=/usr/games/gnugo
fi
[ -n "$GNUGO_BIN" ] && [ -x "$GNUGO_BIN" ] || {
  echo "match-gnugo.sh: GNU Go not found (not on PATH nor /usr/games/gnugo; set GNUGO=... or run scripts/deps.sh)" >&2
  exit 1
}
[ -x "$BIN" ] || { echo "match-gnugo.sh: no sgfpat binary at $BIN (use -b)" >&2; exit 1; }
[ -n "$PRIORS" ] && [ ! -r "$PRIORS" ] && { echo "match-gnugo.sh: cannot read priors $PRIORS" >&2; exit 1; }
[ -z "$OUT" ] && OUT="match-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"

ENGINE="$BIN gtp --playouts $PLAYOUTS --threads $THREADS $EXTRA"
[ -n "$PRIORS" ] && ENGINE="$ENGINE --priors $PRIORS"
GNUGO_CMD="$GNUGO_BIN --mode gtp --level $LEVEL --chinese-rules --komi $KOMI"

exec python3 - "$GAMES" "$ENGINE" "$GNUGO_CMD" "$SIZE" "$KOMI" "$OUT" "$LEVEL" <<'PY'
import math, os, shlex, subprocess, sys, time

games, engine_cmd, gnugo_cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
size, komi, out_dir, level = int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7]
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

class Gtp:
    def __init__(self, cmd):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError("engine died on: " + line)
            l = l.rstrip("\n")
            if l == "" and lines:
                break
            if l == "":
                continue
            lines.append(l)
        head = lines[0]
        ok = head.startswith("=")
        text = "\n".join([head[1:].strip()] + lines[1:]).strip()
        if not ok:
            raise RuntimeError(f"'{line}' refused: {text}")
        return text
    def close(self):
        try:
            self.send("quit")
        except Exception:
            pass
        self.p.wait(timeout=10)

def sgf_point(mv):
    if mv in ("pass", "resign"):
        return ""
    x = LETTERS.index(mv[0].upper())
    y = size - int(mv[1:])
    return "abcdefghijklmnopqrstuvwxy"[x] + "abcdefghijklmnopqrstuvwxy"[y]

def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)

engine, gnugo = Gtp(engine_cmd), Gtp(gnugo_cmd)
wins = {"B": [0, 0], "W": [0, 0]}  # sgfpat colour -> [wins, games]
t0 = time.time()
max_moves = 4 * size * size
for g in range(1, games + 1):
    ours = "B" if g % 2 == 1 else "W"
    for e in (engine, gnugo):
        e.send(f"boardsize {size}"); e.send("clear_board"); e.send(f"komi {komi}")
    players = {ours: engine, ("W" if ours == "B" else "B"): gnugo}
    color, passes, record, resigned = "B", 0, [], None
    tg = time.time()
    while passes < 2 and len(record) < max_moves:
        mover, other = players[color], players["W" if color == "B" else "B"]
        mv = mover.send(f"genmove {color}").lower()
        if mv == "resign":
            resigned = color
            break
        other.send(f"play {color} {mv}")
        record.append((color, mv))
        passes = passes + 1 if mv == "pass" else 0
        color = "W" if color == "B" else "B"
    if resigned:
        winner = "W" if resigned == "B" else "B"
        score = winner + "+R"
    else:
        score = gnugo.send("final_score")
        winner = score[0].upper() if score[:1] in ("B", "W", "b", "w") else "draw"
    won = winner == ours
    wins[ours][1] += 1
    wins[ours][0] += int(won)
    pb, pw = ("sgfpat", f"gnugo-{level}") if ours == "B" else (f"gnugo-{level}", "sgfpat")
    sgf = f"(;GM[1]FF[4]CA[UTF-8]AP[match-gnugo.sh]SZ[{size}]KM[{komi}]RU[Chinese]PB[{pb}]PW[{pw}]RE[{score}]"
    sgf += f"GC[engine: {engine_cmd}]\n"
    sgf += "".join(f";{c}[{sgf_point(m)}]" for c, m in record) + ")\n"
    path = os.path.join(out_dir, f"game-{g:03d}.sgf")
    with open(path, "w") as f:
        f.write(sgf)
    print(f"game {g:3d}: sgfpat {ours}  {len(record):3d} moves  {score:8s} -> {'sgfpat' if won else 'gnugo '}"
          f"  {time.time() - tg:5.0f} s  {path}", flush=True)
total = wins["B"][0] + wins["W"][0]
lo, hi = wilson(total, games)
print(f"sgfpat {total}/{games} wins = {100 * total / max(games, 1):.0f}% (95% interval {100 * lo:.0f}%-{100 * hi:.0f}%), "
      f"as Black {wins['B'][0]}/{wins['B'][1]}, as White {wins['W'][0]}/{wins['W'][1]}; "
      f"{size}x{size} komi {komi} vs GNU Go level {level} in {time.time() - t0:.0f} s; SGF in {out_dir}/")
print(f"engine: {engine_cmd}")
engine.close(); gnugo.close()
PY
