"""Two headless Chromium sessions, one per seat, play a 9x9 game over the
network on 127.0.0.1 by clicking the board: a capture, a ko retake refused
with its message on the page, two passes.  In mid-game the server is killed
(kill -9) and started again on the same port and games folder: both pages
reconnect by themselves and the game goes on with every acknowledged move.
Both pages show the same final score, equal to `sgfpat board`'s and GNU Go's
score of the saved SGF; screenshot pixels are checked on both pages."""
import os

import game_script as gs
import harness
import play_helpers as ph
from harness import check, wait_for

KILL_AFTER_MOVE = 14


def main(a, workdir, cleanup):
    games = os.path.join(workdir, "games")
    server = harness.Server(a.sgfpat, workdir, ["--games-dir", games]).start()
    cleanup(lambda: server.stop())
    black = harness.Browser(workdir, "black")
    cleanup(black.quit)
    white = harness.Browser(workdir, "white")
    cleanup(white.quit)

    black.open(server.url)
    ph.new_game(black, "network", seat="black")
    link = wait_for("the White link", lambda: black.el("link-white").get_attribute("value"), 10)
    check(link.startswith(server.url), f"the White link {link} is not on this server {server.url}")
    white.open(link)
    wait_for("White's page to join", lambda: "you play White" in white.text("title"), 20)
    check("you play Black" in black.text("title"), f"Black's page says: {black.text('title')}")
    pages = [black, white]
    seat_of = lambda colour: black if colour == "B" else white

    state = {"server": server}

    def restart_if_due(number):
        if number != KILL_AFTER_MOVE:
            return
        state["server"].kill9()
        for p in pages:
            wait_for("the page to see the connection lost", lambda p=p: p.text("connection") != "connected", 20)
        again = harness.Server(a.sgfpat, workdir, ["--games-dir", games], name="server2", port=state["server"].port)
        again.start()
        cleanup(again.stop)
        state["server"] = again
        for p in pages:
            wait_for("the page to reconnect", lambda p=p: p.text("connection") == "connected", 30)
            wait_for(f"move {number} after the restart", lambda p=p: f"move {number} ·" in p.text("status"), 20)
        check(black.board_state() == white.board_state(), "the pages show different boards after the restart")

    number = 0
    for m in gs.MOVES:
        if m is None:
            ph.try_ko_retake(white, pages)
            continue
        colour, point = m
        number += 1
        ph.play_and_wait(pages, seat_of(colour), point, number)
        if number == gs.CAPTURE_MOVE:
            for p in pages:
                check(gs.CAPTURED_POINT not in p.board_state(), f"{gs.CAPTURED_POINT} was not captured")
                ph.check_pixels(p)
        restart_if_due(number)

    shown_b, text_b = ph.final_result(black)
    shown_w, text_w = ph.final_result(white)
    check(shown_b == shown_w == gs.EXPECTED_RESULT, f"the pages show {shown_b} and {shown_w}, expected {gs.EXPECTED_RESULT}")
    check(text_b == text_w, f"the pages' results differ: '{text_b}' / '{text_w}'")
    ph.check_saved_game(a.sgfpat, ph.save_sgf(black), shown_b)
    # The server wrote the record's SGF beside it too.
    sgfs = [f for f in os.listdir(games) if f.endswith(".sgf")]
    check(len(sgfs) == 1, f"the games folder holds {sgfs}")
    ph.check_saved_game(a.sgfpat, os.path.join(games, sgfs[0]), shown_b)


harness.run(main)
