"""A 9x9 game between two players in one window, played by clicking the
board in headless Chromium: a capture, a ko retake refused with its reason
on the page, two passes, the area score shown, equal to `sgfpat board`'s and
GNU Go's score of the saved SGF; screenshot pixels checked (black stone dark,
white stone light, the captured point the board's colour again)."""
import game_script as gs
import harness
import play_helpers as ph
from harness import check


def main(a, workdir, cleanup):
    server = harness.Server(a.sgfpat, workdir).start()
    cleanup(server.stop)
    b = harness.Browser(workdir, "local")
    cleanup(b.quit)
    b.open(server.url)
    ph.new_game(b, "local")
    check("both colours" in b.text("title"), f"not a one-window game: {b.text('title')}")
    ph.play_script(lambda colour: b, [b], after_capture=lambda: ph.check_pixels(b))
    shown, text = ph.final_result(b)
    check(shown == gs.EXPECTED_RESULT, f"the page shows {shown} ({text}), expected {gs.EXPECTED_RESULT}")
    check(f"Black {gs.EXPECTED_BLACK}, White {gs.EXPECTED_WHITE}" in text, f"the counts are not shown: {text}")
    marks = b.js("return document.querySelectorAll('#board .territory-mark').length")
    check(marks == 27 + 24, f"{marks} territory marks drawn, expected 51")
    ph.check_saved_game(a.sgfpat, ph.save_sgf(b), shown)


harness.run(main)
