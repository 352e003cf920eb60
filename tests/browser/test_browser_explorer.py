"""The explorer in a real browser, on a database of the sample games
(data/tygem-sample.sgf.gz, ingested by the test) and its priors with a
learned model (trained on 20 of them): a game
of the sample is opened from a file and stepped to a position; the page's
heat map holds the same probability for every legal move as `sgfpat eval
--json`, the pattern table of a clicked point the same counts as `sgfpat
query --json`, and the equal-positions search the same hits and
continuations as `sgfpat similar --exact --json`; a hit opens its game."""
import json

import harness
from harness import check, sgfpat, wait_for

MOVE = 30         # the position of the heat map and the pattern
SIMILAR_MOVE = 4  # an opening position many stored games share


def step_to(b, n):
    b.set_value("nav-slider", str(n))
    wait_for(f"the board at move {n}", lambda: b.text("nav-label").startswith(f"move {n} /"), 20)


def main(a, workdir, cleanup):
    db, priors, game = harness.sample_explorer(a, workdir, levels=6, train_games=20)

    server = harness.Server(a.sgfpat, workdir, ["--db", db, "--priors", priors]).start()
    cleanup(server.stop)
    b = harness.Browser(workdir, "explorer")
    cleanup(b.quit)
    b.open(server.url)
    wait_for("the explorer panel", lambda: b.el("explorer-panel").is_displayed(), 10)
    b.driver.find_element("css selector", "#review-panel summary").click()
    b.el("sgf-file").send_keys(game)
    wait_for("the game to open", lambda: b.text("nav-label").startswith("move 0 /"), 20)

    # ---- the heat map against eval --json ----
    step_to(b, MOVE)
    b.el("ex-heat").click()
    wait_for("the heat map", lambda: b.js("return document.querySelectorAll('#board .heat-cell').length") > 0, 20)
    shown = b.js("const o = {}; for (const c of document.querySelectorAll('#board .heat-cell'))"
                 " o[c.dataset.point] = c.dataset.value; return o;")
    ev = json.loads(sgfpat(a, "eval", "--priors", priors, "--sgf", game, "--move", str(MOVE), "--json"))
    check(ev["estimator"] == "model", f"eval's estimator is {ev['estimator']}, not the learned model")
    check("model estimator" in b.text("ex-heat-info"), f"the page's heat map: {b.text('ex-heat-info')[:80]}")
    check(len(shown) == ev["legal_moves"] == len(ev["moves"]),
          f"the page shows {len(shown)} moves, eval has {ev['legal_moves']}")
    for m in ev["moves"]:
        check(m["move"] in shown, f"{m['move']} has no heat cell")
        check(float(shown[m["move"]]) == m["prob"], f"{m['move']}: the page's prob {shown[m['move']]} != eval's {m['prob']}")

    # ---- the pattern panel against query --json ----
    point = ev["moves"][0]["move"]
    b.el("ex-inspect").click()
    b.click_point(point)
    wait_for("the pattern table", lambda: b.js("return document.querySelector('#ex-pattern-head') !== null"), 20)
    rows = b.js("return [...document.querySelectorAll('#ex-pattern-table tr.level-row')].map(r => ({...r.dataset}));")
    q = json.loads(sgfpat(a, "query", "--db", db, "--sgf", game, "--move", str(MOVE), "--point", point, "--json"))
    check(len(rows) == len(q["levels"]) > 0, f"the page lists {len(rows)} levels, query {len(q['levels'])}")
    for r, l in zip(rows, q["levels"]):
        for field, key in (("level", "level"), ("points", "points"), ("played", "played"), ("seen", "seen"),
                           ("wins", "wins")):
            check(int(r[field]) == l[key], f"level {l['level']} {key}: page {r[field]}, query {l[key]}")
        check(float(r["playRate"]) == l["play_rate"], f"level {l['level']} play rate: {r['playRate']} vs {l['play_rate']}")
        check(float(r["winRate"]) == l["win_rate"], f"level {l['level']} win rate: {r['winRate']} vs {l['win_rate']}")
        check(float(r["playRateLow"]) == l["play_rate_ci95"][0], f"level {l['level']} interval")
        check(r["key"] == l["key"], f"level {l['level']} key {r['key']} vs {l['key']}")
    largest = int(b.js("return document.querySelector('#ex-pattern-head').dataset.largest"))
    check(largest == q["largest_level"], f"largest level {largest} vs {q['largest_level']}")
    cells = b.js("return document.querySelectorAll('#board .diamond-cell').length")
    check(cells > 0, "no diamond drawn")

    # ---- equal positions against similar --exact --json ----
    b.el("ex-inspect").click()
    step_to(b, SIMILAR_MOVE)
    b.el("ex-similar").click()
    wait_for("the equal positions", lambda: b.js("return document.querySelector('#ex-similar-head') !== null"), 30)
    total = int(b.js("return document.querySelector('#ex-similar-head').dataset.total"))
    conts = b.js("return [...document.querySelectorAll('#ex-cont-table tr[data-move]')].map(r => ({...r.dataset}));")
    sim = json.loads(sgfpat(a, "similar", "--db", db, "--sgf", game, "--move", str(SIMILAR_MOVE), "--exact", "--json"))
    check(total == sim["hits_total"] > 1, f"the page finds {total} equal positions, similar {sim['hits_total']}")
    for r, c in zip(conts, sim["continuations"]):
        check((r["move"], int(r["count"]), int(r["wins"])) == (c["move"], c["count"], c["wins"]),
              f"continuation {r} vs {c}")
    marks = b.js("return document.querySelectorAll('#board .overlay').length")
    check(marks == len([c for c in sim["continuations"] if c["move"] != "pass"]), f"{marks} marks drawn")
    # A hit opens its game at that move.
    first_hit = b.driver.find_element("css selector", "#ex-hits-table tr.clickable")
    hit_game = first_hit.get_attribute("data-game")
    first_hit.click()
    want = next(h for h in sim["hits"] if h["game"] == hit_game)
    wait_for("the stored game to open", lambda: b.text("nav-label").startswith(f"move {want['move_number'] - 1} /"), 20)
    print(f"compared: {len(ev['moves'])} heat-map moves at move {MOVE}, {len(rows)} pattern levels at {point}, "
          f"{total} equal positions and {len(conts)} continuations at move {SIMILAR_MOVE}")


harness.run(main, limit_seconds=540)
