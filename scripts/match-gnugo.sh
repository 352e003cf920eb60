#!/usr/bin/env bash
# Plays `sgfpat gtp` against GNU Go on 9x9 and reports the wins.
#
#   scripts/match-gnugo.sh [-g GAMES] [-p PLAYOUTS] [-t THREADS] [-P PRIORS]
#                          [-b SGFPAT_BINARY] [-l GNUGO_LEVEL] [-x "extra sgfpat gtp flags"]
#
# Colors alternate (sgfpat takes Black in odd games), komi 7.5, Chinese
# rules.  A small python3 referee relays the moves between the two GTP
# processes; a game ends after two passes in a row, a resignation or 200
# moves, and GNU Go's final_score decides it.  Each game is printed, then a
# summary line:  sgfpat W/N wins (as Black b/nb, as White w/nw).
set -euo pipefail

GAMES=20
PLAYOUTS=2000
THREADS=1
PRIORS=""
LEVEL=0
EXTRA=""
HERE="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${SGFPAT_BINARY:-$HERE/build/sgfpat}"
while getopts "g:p:t:P:b:l:x:h" opt; do
  case "$opt" in
    g) GAMES="$OPTARG" ;;
    p) PLAYOUTS="$OPTARG" ;;
    t) THREADS="$OPTARG" ;;
    P) PRIORS="$OPTARG" ;;
    b) BIN="$OPTARG" ;;
    l) LEVEL="$OPTARG" ;;
    x) EXTRA="$OPTARG" ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
done
command -v gnugo >/dev/null || { echo "match-gnugo.sh: gnugo not found" >&2; exit 1; }
[ -x "$BIN" ] || { echo "match-gnugo.sh: no sgfpat binary at $BIN (use -b)" >&2; exit 1; }

ENGINE="$BIN gtp --playouts $PLAYOUTS --threads $THREADS $EXTRA"
[ -n "$PRIORS" ] && ENGINE="$ENGINE --priors $PRIORS"
GNUGO="gnugo --mode gtp --level $LEVEL --chinese-rules --komi 7.5"

exec python3 - "$GAMES" "$ENGINE" "$GNUGO" <<'PY'
import shlex, subprocess, sys, time

games, engine_cmd, gnugo_cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3]

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
            if l == "" :
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

engine, gnugo = Gtp(engine_cmd), Gtp(gnugo_cmd)
wins = {"B": [0, 0], "W": [0, 0]}  # sgfpat color -> [wins, games]
margins = []
t0 = time.time()
for g in range(1, games + 1):
    ours = "B" if g % 2 == 1 else "W"
    for e in (engine, gnugo):
        e.send("boardsize 9"); e.send("clear_board"); e.send("komi 7.5")
    players = {ours: engine, ("W" if ours == "B" else "B"): gnugo}
    color, passes, moves, resigned = "B", 0, 0, None
    while passes < 2 and moves < 200:
        mover, other = players[color], players["W" if color == "B" else "B"]
        mv = mover.send(f"genmove {color}").lower()
        if mv == "resign":
            resigned = color
            break
        other.send(f"play {color} {mv}")
        passes = passes + 1 if mv == "pass" else 0
        moves += 1
        color = "W" if color == "B" else "B"
    if resigned:
        winner, score = ("W" if resigned == "B" else "B"), "resign"
    else:
        score = gnugo.send("final_score")
        winner = score[0].upper() if score[0] in "BWbw" else "draw"
    won = winner == ours
    wins[ours][1] += 1
    wins[ours][0] += int(won)
    print(f"game {g:3d}: sgfpat {ours}  {moves:3d} moves  {score:8s} -> {'sgfpat' if won else 'gnugo'}", flush=True)
total = wins["B"][0] + wins["W"][0]
print(f"sgfpat {total}/{games} wins (as Black {wins['B'][0]}/{wins['B'][1]}, as White {wins['W'][0]}/{wins['W'][1]}) "
      f"in {time.time() - t0:.0f} s; engine: {engine_cmd}")
engine.close(); gnugo.close()
PY
