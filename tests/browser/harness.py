"""Shared by the browser tests: a `sgfpat serve` started for the test, headless
Chromium sessions (Debian's chromium + chromium-driver through
python3-selenium), bounded waits, clicks on board points, and pixels of
screenshots.

Everything is bounded: every wait has a limit and fails with a message, the
whole test has an alarm, and at the end the server, the drivers and the
browsers this test started are stopped (by their own process ids, and the
browsers found by their own fresh profile directory).
"""
import argparse
import gzip
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SETUP_HINT = "install chromium, chromium-driver and python3-selenium (scripts/deps.sh does)"


class TestFailure(Exception):
    pass


def check(cond, message):
    if not cond:
        raise TestFailure(message)


def args():
    p = argparse.ArgumentParser()
    p.add_argument("--sgfpat", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return p.parse_args()


def wait_for(what, fn, timeout=20.0, interval=0.05):
    """Calls fn until it returns something true; fails naming `what`."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            v = fn()
            if v:
                return v
        except WebDriverException as e:  # the page is changing under us: try again
            last_error = e
        time.sleep(interval)
    raise TestFailure(f"timed out after {timeout:.0f} s waiting for {what}" +
                      (f" (last error: {last_error.msg})" if last_error else ""))


class Server:
    """`sgfpat serve --port 0 ...` in its own process group; .url once it listens."""

    def __init__(self, sgfpat, workdir, extra=(), env=None, name="server", port=0):
        self.port = port
        self.sgfpat = sgfpat
        self.workdir = workdir
        self.extra = list(extra)
        self.env = env
        self.name = name
        self.proc = None
        self.url = None
        self.err_path = os.path.join(workdir, f"{name}.stderr")

    def start(self, timeout=60):
        cmd = [self.sgfpat, "serve", "--port", str(self.port)] + self.extra
        env = dict(os.environ)
        if self.env:
            env.update(self.env)
        self.err = open(self.err_path, "ab")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.err, start_new_session=True, env=env)
        deadline = time.monotonic() + timeout
        line = b""
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if r:
                ch = os.read(self.proc.stdout.fileno(), 1)
                if not ch:
                    break
                line += ch
                if ch == b"\n":
                    m = re.search(rb"(http://[^ ]+/)", line)
                    if m:
                        self.url = m.group(1).decode()
                        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
                        return self
                    line = b""
            elif self.proc.poll() is not None:
                break
        self.stop()
        raise TestFailure(f"{self.name} did not print its URL within {timeout} s; stderr: {self.stderr()}")

    def stderr(self):
        try:
            with open(self.err_path, "rb") as f:
                return f.read().decode(errors="replace")[-3000:]
        except OSError:
            return ""

    def kill9(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=20)
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()
        return self.proc.returncode if self.proc else None


class Browser:
    """One headless Chromium with a fresh profile (and download folder)."""

    def __init__(self, workdir, name, width=1300, height=1000):
        self.profile = tempfile.mkdtemp(prefix=f"chromium-{name}-", dir=workdir)
        self.downloads = os.path.join(workdir, f"downloads-{name}")
        os.makedirs(self.downloads, exist_ok=True)
        for path in (CHROMIUM, CHROMEDRIVER):
            check(os.access(path, os.X_OK), f"{path} is missing: {SETUP_HINT}")
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--force-device-scale-factor=1", "--hide-scrollbars",
                  f"--window-size={width},{height}", f"--user-data-dir={self.profile}"]:
            o.add_argument(a)
        o.add_experimental_option("prefs", {"download.default_directory": self.downloads,
                                            "download.prompt_for_download": False})
        self.service = Service(CHROMEDRIVER, log_output=os.path.join(workdir, f"chromedriver-{name}.log")) \
            if "log_output" in Service.__init__.__code__.co_varnames else \
            Service(CHROMEDRIVER, log_path=os.path.join(workdir, f"chromedriver-{name}.log"))
        self.driver = webdriver.Chrome(service=self.service, options=o)
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(30)
        # Downloads in headless mode go where we say.
        try:
            self.driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        except WebDriverException:
            pass

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass
        # Anything still running with this profile is ours: stop it by pid.
        try:
            out = subprocess.run(["pgrep", "-f", f"--user-data-dir={self.profile}"], capture_output=True,
                                 text=True, timeout=10).stdout
            for pid in out.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
        except (OSError, subprocess.SubprocessError):
            pass
        proc = getattr(self.service, "process", None)
        if proc and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)

    # ---- the page ----

    def open(self, url):
        self.driver.get(url)
        wait_for("the page to connect to the server", lambda: self.text("connection") == "connected", 30)

    def el(self, id_):
        return self.driver.find_element(By.ID, id_)

    def text(self, id_):
        return self.el(id_).text

    def js(self, script, *a):
        return self.driver.execute_script(script, *a)

    def select(self, id_, value):
        self.js("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                "s.dispatchEvent(new Event('change'));", id_, value)

    def set_value(self, id_, value):
        self.js("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                "s.dispatchEvent(new Event('input'));", id_, value)

    def board_state(self):
        """The stones drawn: {point name: 'X' or 'O'}."""
        return self.js("const o = {}; for (const s of document.querySelectorAll('#board .stone'))"
                       " o[s.dataset.point] = s.classList.contains('stone-b') ? 'X' : 'O'; return o;")

    def click_point(self, name):
        self.driver.find_element(By.CSS_SELECTOR, f'#board rect.hit[data-point="{name}"]').click()

    def point_centre(self, name):
        """The centre of point `name` in the page's pixels, and one cell's width."""
        r = self.js("const e = document.querySelector(`#board rect.hit[data-point=\"${arguments[0]}\"]`);"
                    "const b = e.getBoundingClientRect();"
                    "return [b.left + b.width / 2, b.top + b.height / 2, b.width, window.devicePixelRatio];", name)
        return r[0], r[1], r[2], r[3]

    def pixel(self, name, dx=0.3, dy=0.3):
        """The colour (r, g, b) of the screenshot at point `name` shifted by (dx, dy)
        cells: off the grid lines and off the last-move mark, inside a stone."""
        x, y, cell, ratio = self.point_centre(name)
        img = Png(self.driver.get_screenshot_as_png())
        return img.rgb(int((x + dx * cell) * ratio), int((y + dy * cell) * ratio))

    def move_pointer_away(self):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).move_to_element(self.el("title")).perform()
        wait_for("the shadow stone to go", lambda: self.js(
            "return document.querySelector('#board .ghost').getAttribute('visibility') === 'hidden'"), 5)

    def notice(self):
        n = self.el("notice")
        return (n.text, n.get_attribute("data-code")) if n.is_displayed() else ("", "")


class Png:
    """Enough of PNG to read Chromium's screenshots: 8-bit RGB or RGBA, not interlaced."""

    def __init__(self, data):
        check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG")
        pos, idat = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                self.w, self.h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
                check(depth == 8 and ctype in (2, 6) and interlace == 0, f"unexpected PNG format {depth}/{ctype}/{interlace}")
                self.bpp = 3 if ctype == 2 else 4
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = self.w * self.bpp
        rows, prev = [], bytearray(stride)
        for y in range(self.h):
            f = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - self.bpp] if i >= self.bpp else 0
                b = prev[i]
                c = prev[i - self.bpp] if i >= self.bpp else 0
                if f == 1:
                    line[i] = (line[i] + a) & 255
                elif f == 2:
                    line[i] = (line[i] + b) & 255
                elif f == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            prev = line
        self.rows = rows

    def rgb(self, x, y):
        check(0 <= x < self.w and 0 <= y < self.h, f"pixel ({x}, {y}) outside the {self.w}x{self.h} screenshot")
        o = x * self.bpp
        r = self.rows[y]
        return r[o], r[o + 1], r[o + 2]


def brightness(rgb):
    return sum(rgb) / 3


def sgfpat(a, *args, timeout=300):
    """Runs `sgfpat ARGS` (bounded); fails the test with its stderr unless it exits 0."""
    out = subprocess.run([a.sgfpat, *args], capture_output=True, text=True, timeout=timeout)
    check(out.returncode == 0, f"sgfpat {' '.join(args)} failed ({out.returncode}): {out.stderr[-2000:]}")
    return out.stdout


def sample_explorer(a, workdir, levels, train_games):
    """The explorer's data from the shipped sample: a database of its games
    at `levels`, priors with a model trained on `train_games` games, and its
    first game as a file of its own for the page to open.  Returns (db,
    priors, game)."""
    sample = os.path.join(a.source, "data", "tygem-sample.sgf.gz")
    db = os.path.join(workdir, "sample.db")
    priors = os.path.join(workdir, "sample.priors")
    sgfpat(a, "ingest", "--db", db, "--levels", str(levels), "--threads", "1", "--min-played", "2", "--quiet", sample,
           timeout=600)
    sgfpat(a, "export", "--db", db, "-o", priors + ".plain")
    sgfpat(a, "train", "--db", db, "--priors", priors + ".plain", "-o", priors, "--games", str(train_games), "--seed", "1")
    with gzip.open(sample, "rt", encoding="utf-8", errors="replace") as f:
        first = f.readline()
    game = os.path.join(workdir, "game1.sgf")
    with open(game, "w", encoding="utf-8") as f:
        f.write(first)
    return db, priors, game


def close_colour(a, b, tolerance=24):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def run(main, limit_seconds=480):
    """Runs main(args, workdir, cleanup) with an alarm; cleanup(fn) registers what to stop."""
    a = args()
    workdir = tempfile.mkdtemp(prefix="sgfpat-browser-")
    cleanups = []

    def on_alarm(signum, frame):
        raise TestFailure(f"the test ran longer than its limit of {limit_seconds} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(limit_seconds)
    code = 0
    try:
        main(a, workdir, cleanups.append)
        print("PASS")
    except TestFailure as e:
        print(f"FAIL: {e}")
        code = 1
    except Exception as e:  # a broken test is a failed test
        import traceback
        traceback.print_exc()
        print(f"FAIL: {type(e).__name__}: {e}")
        code = 1
    finally:
        signal.alarm(0)
        for fn in reversed(cleanups):
            try:
                fn()
            except Exception as e:
                print(f"cleanup: {type(e).__name__}: {e}")
        if code and a.keep:
            print(f"kept {workdir}")
        elif not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(code)
