"""The engine in a real browser: a 9x9 game against it (it answers each
click with its own move), the analysis of the position drawn over the board
(candidates with visits within the playouts asked), and in a 5x5 atari-go
game the solver's verdict on every move of the side to move."""
import harness
from harness import check, wait_for


def main(a, workdir, cleanup):
    server = harness.Server(a.sgfpat, workdir).start()
    cleanup(server.stop)
    b = harness.Browser(workdir, "engine")
    cleanup(b.quit)
    b.open(server.url)

    # ---- a game against the engine ----
    b.select("ng-size", "9")
    b.select("ng-rules", "go")
    b.select("ng-mode", "engine")
    b.select("ng-engine-color", "W")
    b.select("ng-engine-strength", "p:1000")
    b.el("ng-start").click()
    wait_for("the game against the engine", lambda: "against the engine" in b.text("title"), 20)
    for n, point in ((1, "E5"), (3, "C3")):
        b.click_point(point)
        wait_for(f"the engine's answer to move {n}", lambda: f"move {n + 1} ·" in b.text("status"), 60)
        stones = b.board_state()
        check(stones.get(point) == "X", f"no black stone at {point}")
        check(sum(1 for v in stones.values() if v == "O") == (n + 1) // 2, f"the engine's stones: {stones}")
        check("your move" in b.text("status"), f"status after the engine's move: {b.text('status')}")

    # ---- the analysis ----
    b.driver.find_element("css selector", "#engine-panel summary").click()
    b.select("en-playouts", "1000")
    b.el("en-analyze").click()
    wait_for("the analysis", lambda: b.js("return document.getElementById('en-head') !== null"), 60)
    visits = b.js("return [...document.querySelectorAll('#en-table tr[data-move]')].map(r => Number(r.dataset.visits));")
    check(visits and sum(visits) <= 1000 and sum(visits) > 500, f"candidate visits {visits}")
    marks = b.js("return document.querySelectorAll('#board .overlay').length")
    check(marks == min(8, len(visits)), f"{marks} candidate marks drawn for {len(visits)} candidates")

    # ---- atari-go: the solver ----
    b.select("ng-mode", "local")
    b.select("ng-rules", "atari")
    b.select("ng-size", "5")
    b.el("ng-start").click()
    wait_for("the atari-go game", lambda: "Atari-go" in b.text("title"), 20)
    for n, point in enumerate(["C3", "C4", "B4", "D3"], 1):
        b.click_point(point)
        wait_for(f"move {n}", lambda n=n: f"move {n} ·" in b.text("status"), 20)
    check(b.el("en-solve").is_displayed(), "no Solve button for a 5x5 atari-go game")
    b.el("en-solve").click()
    wait_for("the solver's answer", lambda: b.js("return document.getElementById('en-solve-head') !== null"), 120)
    texts = b.js("return [...document.querySelectorAll('#board .overlay text')].map(t => t.textContent);")
    check(len(texts) == 25 - 4, f"{len(texts)} verdicts drawn, expected one per empty point (21)")
    check(all(t in ("W", "L", "?") for t in texts), f"verdicts {texts}")
    winning = b.js("return document.getElementById('en-solve-head').dataset.winning")
    check(("W" in texts) == bool(winning), f"winning move '{winning}' and marks {texts} disagree")


harness.run(main)
