"""Drives the pages of `tomek serve` in headless Chromium (see verify-web.sh)."""

import csv
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Where the screenshots go: generated/ by default (the guide shows them); CI puts them under
# target/, as a browser's pixels differ from machine to machine and are no data set to rebuild
# byte for byte.
SHOTS = os.environ.get("WEB_SCREENSHOTS", "generated")

TOMEK = sys.argv[1]
# How long a check waits for the page to show an answer (seconds): a bound for a busy machine.
WAIT = 120
# The background colour of a square by the value of moving there (style.css).
COLOURS = {
    "win": "rgba(159, 223, 159, 1)",
    "draw": "rgba(243, 227, 138, 1)",
    "loss": "rgba(240, 160, 160, 1)",
}
checks = 0


def check(condition, message):
    global checks
    if not condition:
        raise SystemExit(f"verify-web: FAILED: {message}")
    checks += 1


def explain(board):
    out = subprocess.run(
        [TOMEK, "--quiet", "explain", "--format", "json", board],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def start_server():
    server = subprocess.Popen(
        [TOMEK, "serve", "--addr", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline().strip()
    prefix = "listening on "
    if not line.startswith(prefix):
        server.kill()
        raise SystemExit(f"verify-web: tomek serve said {line!r}")
    return server, line[len(prefix):].rstrip("/")


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def full_page_screenshot(driver, path):
    """A screenshot of the whole page, 1280 pixels wide: the viewport is made as tall as the
    page first."""
    def viewport(height):
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        time.sleep(0.3)

    viewport(900)
    height = driver.execute_script(
        "return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)"
    )
    viewport(height)
    driver.execute_script("window.scrollTo(0, 0)")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    check(width <= 1280, f"{path}: the page is {width} pixels wide")
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def bars_of(driver):
    """The number of bars of the page's plot (distinct x of its rectangles)."""
    rects = driver.find_elements(By.CSS_SELECTOR, "#plot svg rect")
    return len({r.get_attribute("x") for r in rects})


def check_stats(driver):
    """The page's statistics are those of `tomek stats --format json` (generated/stats.json),
    and its plot has one bar per ply."""
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return document.body.dataset.stats") == "shown"
    )
    with open("generated/stats.json") as f:
        stats = json.load(f)
    check(len(stats["setups"]) == 18, "generated/stats.json has 17 setups and the total")
    number = lambda v: int(v.replace(",", "")) if v else None
    for s in stats["setups"]:
        s["setup"] = str(s["setup"])
        row = driver.find_element(By.ID, "setup-" + s["setup"])
        cells = [td.text for td in row.find_elements(By.TAG_NAME, "td")]
        want = [s["boards_x_won"], s["boards_o_won"], s["boards_draw"], s["boards_open"], s["boards_total"]]
        got = [number(c) for c in cells[1:6]]
        check(got == want, f"boards of setup {s['setup']}: {got} != {want}")
        row = driver.find_element(By.ID, "games-" + s["setup"])
        games = [number(td.text) for td in row.find_elements(By.TAG_NAME, "td")[1:]]
        want = [s["games_x_won"], s["games_o_won"], s["games_draw"], s["games_total"]]
        check(games == want, f"games of setup {s['setup']}: {games} != {want}")
        if s["setup"] != "all":
            check(cells[6] == s["value"], f"value of setup {s['setup']}: {cells[6]!r}")
        wdl = [number(c) for c in cells[7:10]]
        check(wdl == [s["to_move_wins"], s["to_move_draws"], s["to_move_loses"]], f"setup {s['setup']}: {wdl}")
    for table in ["setups", "gamecounts"]:
        body_rows = driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
        check(len(body_rows) == 17, f"{len(body_rows)} setups in the table {table}")
    orbits = [b for b in stats["symmetry"]["by_status"] if b["status"] == "total"][0]["orbits"]
    text = driver.find_element(By.ID, "orbits").text
    check(text.startswith(f"{orbits:,} orbits"), f"orbits: {text!r}")
    check(bars_of(driver) == 17, f"the plot of boards by ply has {bars_of(driver)} bars")
    driver.find_element(By.CSS_SELECTOR, "#plotscale option[value='log']").click()
    check(bars_of(driver) == 17, "the logarithmic plot has 17 bars")
    driver.find_element(By.CSS_SELECTOR, "#plotsetup option[value='none']").click()
    title = driver.find_element(By.CSS_SELECTOR, "#plot svg text").text
    total = [s for s in stats["setups"] if s["setup"] == "none"][0]["boards_total"]
    check(f"{total:,} boards" in title, f"plot title {title!r}")
    driver.find_element(By.CSS_SELECTOR, "#plotsetup option[value='all']").click()
    driver.find_element(By.CSS_SELECTOR, "#plotscale option[value='linear']").click()


def wait_board(driver, board):
    # A board of the first plies waits for its setup's tables, which the server computes on
    # start (about 22 s on two cores busy with other work, as in CI): the bound is generous, as
    # this checks what the page shows, not how fast.
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return document.body.dataset.board") == board
    )


def check_tomek_page(driver, board):
    """The page shows what `tomek explain` says about `board`."""
    wait_board(driver, board)
    e = explain(board)
    status = driver.find_element(By.ID, "status").text
    check(status == e["evaluators"][0]["status"], f"{board}: status {status!r}")
    check(
        driver.find_element(By.ID, "reachable").text == ("yes" if e["reachable"] else "no"),
        f"{board}: reachable",
    )
    value = driver.find_element(By.ID, "value")
    if e["play"]:
        v = e["play"]["value"]
        check(value.get_attribute("data-outcome") == v["outcome"], f"{board}: value outcome")
        check(
            value.get_attribute("data-distance") == str(v["distance"]),
            f"{board}: value distance",
        )
        moves = {m["square"]: m["value"] for m in e["play"]["moves"]}
    else:
        moves = {}
    for sq in range(16):
        cell = driver.find_element(By.ID, f"sq{sq}")
        colour = cell.value_of_css_property("background-color")
        if sq in moves:
            m = moves[sq]
            check(cell.get_attribute("data-value") == m["outcome"], f"{board}: square {sq} value")
            check(
                cell.get_attribute("data-distance") == str(m["distance"]),
                f"{board}: square {sq} distance",
            )
            check(colour == COLOURS[m["outcome"]], f"{board}: square {sq} colour {colour}")
        else:
            check(cell.get_attribute("data-value") is None, f"{board}: square {sq} uncoloured")
            check(colour not in COLOURS.values(), f"{board}: square {sq} colour {colour}")
    reasons = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#reasons li")]
    check(reasons == e["reasons"], f"{board}: reasons {reasons}")
    check(driver.find_element(By.ID, "ply").text == str(e["ply"]), f"{board}: ply")
    stones = driver.find_element(By.ID, "stones").text
    check(stones.startswith(f"X {e['x_stones']}, O {e['o_stones']}"), f"{board}: stones {stones!r}")


def main():
    started = time.monotonic()
    server, base = start_server()
    profile = tempfile.mkdtemp(prefix="verify-web-chromium-")
    driver = browser(profile)
    try:
        # Tomek: a T in a corner, then a game by clicking until it is over.
        driver.get(base + "/tomek")
        board = "." * 16
        check_tomek_page(driver, board)
        driver.find_element(By.CSS_SELECTOR, "#mode option[value='T']").click()
        driver.find_element(By.ID, "sq15").click()
        board = board[:15] + "T"
        check_tomek_page(driver, board)
        driver.find_element(By.CSS_SELECTOR, "#mode option[value='play']").click()
        for i, sq in enumerate([0, 5, 1, 6, 2, 7, 3]):
            driver.find_element(By.ID, f"sq{sq}").click()
            board = board[:sq] + "XO"[i % 2] + board[sq + 1:]
            check_tomek_page(driver, board)
        check(driver.find_element(By.ID, "status").text == "X won", "the game ends with X won")
        # No move once the game is over.
        driver.find_element(By.ID, "sq10").click()
        WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "error").is_displayed())
        check(driver.execute_script("return document.body.dataset.board") == board, "no move after the end")
        check("over" in driver.find_element(By.ID, "error").text, "the page says the game is over")
        check(driver.find_element(By.ID, "tomove").text.startswith("nobody"), "nobody to move")
        # Undo and redo.
        driver.find_element(By.ID, "undo").click()
        undone = board[:3] + "." + board[4:]
        check_tomek_page(driver, undone)
        driver.find_element(By.ID, "redo").click()
        check_tomek_page(driver, board)
        # An unreachable board pasted in: the reasons are listed.
        field = driver.find_element(By.ID, "boardtext")
        field.clear()
        field.send_keys("XXXT/..O./..../....")
        driver.find_element(By.CSS_SELECTOR, "#paste button").click()
        check_tomek_page(driver, "XXXT..O.........")
        # Back to an open position with coloured squares, then its shared link.
        driver.find_element(By.ID, "undo").click()
        driver.find_element(By.ID, "undo").click()
        driver.find_element(By.ID, "undo").click()
        shown = board[:3] + "." + board[4:]
        shown = shown[:7] + "." + shown[8:]
        check_tomek_page(driver, shown)
        link = driver.find_element(By.ID, "share").get_attribute("href")
        check(link.endswith("?board=" + shown), f"shared link {link}")
        driver.get("about:blank")
        driver.get(link)
        check_tomek_page(driver, shown)
        check_stats(driver)
        full_page_screenshot(driver, os.path.join(SHOTS, "web-tomek.png"))
        # Every setup can be started from.
        for setup in ["5", "none", "15"]:
            driver.find_element(By.CSS_SELECTOR, f"#setupchoice option[value='{setup}']").click()
            driver.find_element(By.ID, "startsetup").click()
            board = "." * 16 if setup == "none" else "." * int(setup) + "T" + "." * (15 - int(setup))
            check_tomek_page(driver, board)
            driver.find_element(By.ID, "sq0" if setup != "none" else "sq1").click()
            sq = 0 if setup != "none" else 1
            check_tomek_page(driver, board[:sq] + "X" + board[sq + 1:])
        options = driver.find_elements(By.CSS_SELECTOR, "#setupchoice option")
        check(len(options) == 17, f"{len(options)} setups to choose from")

        # Four in a row: three columns filled, the scores shown, then the winning move.
        driver.get(base + "/fourow")
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.ID, "verdict").text == "Game is not over, yet."
        )
        moves = "444444333333222222"
        for ch in moves:
            before = driver.find_element(By.ID, "moves").text
            driver.find_element(By.ID, f"c{ch}r1").click()
            WebDriverWait(driver, WAIT).until(
                lambda d, b=before: d.find_element(By.ID, "moves").text != b
            )
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.ID, "score1").text != ""
        )
        api = json.loads(
            subprocess.run(
                [TOMEK, "--quiet", "fourow", "explain", "--format", "json", moves],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for m in api["moves"]:
            shown_score = driver.find_element(By.ID, f"score{m['column']}").text
            check(shown_score == str(m["score"]), f"column {m['column']} score {shown_score}")
        # The positions per ply of 7×6 are those of `tomek fourow count` (the committed
        # generated/fourow-space.csv), and 4,531,985,219,092 in all (Tromp's count).
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("return document.body.dataset.counts") == "7x6"
        )
        count_rows = driver.find_elements(By.CSS_SELECTOR, "#counts tbody tr")
        with open("generated/fourow-space.csv") as f:
            committed = [r for r in csv.reader(f)][1:-1]
        check(len(count_rows) == 43 == len(committed), f"positions per ply of 7×6: {len(count_rows)} rows")
        for tr, want in zip(count_rows, committed):
            got = [td.text.replace(",", "") for td in tr.find_elements(By.TAG_NAME, "td")]
            check(got == want, f"positions per ply: {got} != {want}")
        note = driver.find_element(By.ID, "countnote").text
        check(note.startswith("4,531,985,219,092 positions on the 7×6 board"), f"count note {note!r}")
        check(bars_of(driver) == 43, f"the plot of positions per ply has {bars_of(driver)} bars")
        full_page_screenshot(driver, os.path.join(SHOTS, "web-fourow.png"))
        driver.find_element(By.ID, "c1r1").click()
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.ID, "verdict").text.startswith("Game is over")
        )
        verdict = driver.find_element(By.ID, "verdict").text
        check(verdict == "Game is over. The first player won.", f"verdict {verdict!r}")
        # A smaller board: counted by the server.
        driver.get(base + "/fourow?moves=&cols=4&rows=4")
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("return document.body.dataset.counts") == "4x4"
        )
        count_rows = driver.find_elements(By.CSS_SELECTOR, "#counts tbody tr")
        check(len(count_rows) == 17, f"positions per ply of 4×4: {len(count_rows)} rows")
        check(bars_of(driver) == 17, f"the plot of 4×4 has {bars_of(driver)} bars")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)
    print(
        f"verify-web: {checks} checks passed in {time.monotonic() - started:.1f} s; "
        f"screenshots {SHOTS}/web-tomek.png, {SHOTS}/web-fourow.png"
    )


main()
