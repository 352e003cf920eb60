"""docs/serve.png: the page of `sgfpat serve` in Debian's headless Chromium
(the browser tests' harness), on a database of the sample games and their
priors with a learned model: the first game of the sample opened at move
MOVE, the heat map of the priors, and the pattern table of the most likely
move with its diamond.

    /usr/bin/python3 scripts/serve-screenshot.py --sgfpat build/sgfpat --source .

Bounded like the tests (an alarm, every wait limited); stops the server and
the browser it started.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
import harness  # noqa: E402
from harness import check, wait_for  # noqa: E402

MOVE = 60


def main(a, workdir, cleanup):
    db, priors, game = harness.sample_explorer(a, workdir, levels=8, train_games=50)

    server = harness.Server(a.sgfpat, workdir, ["--db", db, "--priors", priors]).start()
    cleanup(server.stop)
    b = harness.Browser(workdir, "screenshot", width=1280, height=960)
    cleanup(b.quit)
    b.open(server.url)
    wait_for("the explorer panel", lambda: b.el("explorer-panel").is_displayed(), 10)
    b.driver.find_element("css selector", "#review-panel summary").click()
    b.el("sgf-file").send_keys(game)
    wait_for("the game to open", lambda: b.text("nav-label").startswith("move 0 /"), 20)
    b.set_value("nav-slider", str(MOVE))
    wait_for(f"the board at move {MOVE}", lambda: b.text("nav-label").startswith(f"move {MOVE} /"), 20)
    b.el("ex-heat").click()
    wait_for("the heat map", lambda: b.js("return document.querySelectorAll('#board .heat-cell').length") > 0, 30)
    # The pattern of the most likely move.
    moves = b.js("return [...document.querySelectorAll('#board .heat-cell')].map(c => [c.dataset.point, Number(c.dataset.value)])")
    point = max(moves, key=lambda m: m[1])[0]
    b.el("ex-inspect").click()
    b.click_point(point)
    wait_for("the pattern table", lambda: b.js("return document.querySelector('#ex-pattern-head') !== null"), 30)
    b.move_pointer_away()
    # The side panels the picture is not about are folded, so that the
    # pattern table shows beside the board.
    b.js("document.getElementById('new-game').open = false; document.getElementById('review-panel').open = false;")
    out = os.path.join(a.source, "docs", "serve.png")
    check(b.driver.save_screenshot(out), f"could not write {out}")
    print(f"wrote {out}: move {MOVE} of the sample's first game, the heat map, the pattern at {point}")


harness.run(main, limit_seconds=900)
