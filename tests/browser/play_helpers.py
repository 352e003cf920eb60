"""Playing the scripted game through pages, and checking its end: the
result shown, the saved SGF's score by `sgfpat board` and by GNU Go."""
import glob
import os
import re
import subprocess
import time

import game_script as gs
from harness import brightness, check, close_colour, wait_for


def new_game(browser, mode, seat="black"):
    """Fills the New game form (9x9 Go, komi 7.5) and starts a game."""
    browser.select("ng-size", str(gs.SIZE))
    browser.select("ng-rules", "go")
    browser.set_value("ng-komi", str(gs.KOMI))
    browser.select("ng-mode", mode)
    if mode == "network":
        browser.select("ng-my-seat", seat)
    browser.el("ng-start").click()
    wait_for("the new game to open", lambda: browser.text("status").startswith("Black to play"), 20)


def play_and_wait(players, mover, point, number):
    """`mover` clicks `point` (or Pass); every page in `players` must then show move `number`."""
    if point == "pass":
        wait_for(f"the Pass button for move {number}", lambda: mover.el("pass").is_enabled(), 20)
        mover.el("pass").click()
    else:
        mover.click_point(point)
    for b in players:
        wait_for(f"move {number} ({point}) on every page", lambda b=b: f"move {number} ·" in b.text("status"), 20)
        if point != "pass":
            check(point in b.board_state(), f"no stone at {point} after move {number}")


def check_pixels(b):
    """After the capture: a black stone's centre dark, a white stone's light, the captured point the board's colour."""
    b.move_pointer_away()  # the shadow stone under the pointer is not a stone
    black = b.pixel("D5")
    white = b.pixel("F6")
    captured = b.pixel(gs.CAPTURED_POINT)
    board = b.pixel("B8")  # an empty point far from everything: the wood
    check(brightness(black) < 70, f"the black stone at D5 is not dark: {black}")
    check(brightness(white) > 180, f"the white stone at F6 is not light: {white}")
    check(brightness(board) > 120 and board[0] > board[2] + 40, f"B8 is not the board's wood colour: {board}")
    check(close_colour(captured, board), f"the captured point {gs.CAPTURED_POINT} is {captured}, not the board's {board}")


def try_ko_retake(mover, players):
    """White takes back the ko at once: refused, with the reason on the page."""
    colour, point = gs.KO_RETAKE
    mover.click_point(point)
    text, code = wait_for("the ko refusal on the page", lambda: mover.notice() if mover.notice()[0] else None, 10)
    check(code == "ko", f"the refusal's code is '{code}', not 'ko' ({text})")
    check("Ko" in text, f"the refusal does not say ko: {text}")
    for b in players:
        check(point not in b.board_state(), f"{point} holds a stone after the refused retake")


def play_script(seat_of, players, after_capture=None):
    """Plays game_script.MOVES; seat_of(colour) is the page that plays it."""
    number = 0
    for m in gs.MOVES:
        if m is None:
            try_ko_retake(seat_of("W"), players)
            continue
        colour, point = m
        number += 1
        play_and_wait(players, seat_of(colour), point, number)
        if number == gs.CAPTURE_MOVE:
            for b in players:
                check(gs.CAPTURED_POINT not in b.board_state(), f"{gs.CAPTURED_POINT} was not captured by move {number}")
            if after_capture:
                after_capture()


def final_result(b):
    wait_for("the final score on the page", lambda: b.el("result").is_displayed(), 20)
    return b.el("result").get_attribute("data-sgf"), b.text("result")


def save_sgf(b, timeout=20):
    before = set(glob.glob(os.path.join(b.downloads, "*.sgf")))
    b.el("save-sgf").click()
    path = wait_for("the saved SGF in the download folder",
                    lambda: next(iter(set(glob.glob(os.path.join(b.downloads, "*.sgf"))) - before), None), timeout)
    time.sleep(0.2)  # the browser renames the finished file into place; let it close it
    return path


def sgfpat_score(sgfpat, path):
    out = subprocess.run([sgfpat, "board", path], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, f"sgfpat board {path} failed: {out.stderr}")
    m = re.search(r"Area score .*: Black (\d+), White (\d+), komi ([-\d.]+): (\S+)", out.stdout)
    check(m, f"no area score in `sgfpat board` output:\n{out.stdout}")
    return int(m.group(1)), int(m.group(2)), m.group(4)


def gnugo_score(path):
    gnugo = next((g for g in ("/usr/games/gnugo", "/usr/bin/gnugo") if os.access(g, os.X_OK)), None)
    check(gnugo, "gnugo is missing: scripts/deps.sh installs it")
    out = subprocess.run([gnugo, "--chinese-rules", "--score", "aftermath", "-l", path], capture_output=True,
                         text=True, timeout=240)
    m = re.search(r"(White|Black) wins by ([\d.]+) points", out.stdout)
    check(m, f"GNU Go gave no score:\n{out.stdout}\n{out.stderr}")
    return ("W" if m.group(1) == "White" else "B") + "+" + ("%g" % float(m.group(2)))


def check_saved_game(sgfpat, path, shown):
    black, white, result = sgfpat_score(sgfpat, path)
    check((black, white) == (gs.EXPECTED_BLACK, gs.EXPECTED_WHITE),
          f"sgfpat counts Black {black}, White {white}; expected {gs.EXPECTED_BLACK}, {gs.EXPECTED_WHITE}")
    check(result == shown, f"sgfpat scores the saved SGF {result}, the page showed {shown}")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    check(f"RE[{shown}]" in text, f"the saved SGF's RE is not {shown}: {text[:200]}")
    g = gnugo_score(path)
    check(g == shown, f"GNU Go scores the saved SGF {g}, the page showed {shown}")
