"""Drives the pages of `tomek serve` in headless Chromium (see verify-web.sh)."""

import json
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TOMEK = sys.argv[1]
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
        "--window-size=1100,800",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_board(driver, board):
    WebDriverWait(driver, 20).until(
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
        driver.save_screenshot("generated/web-tomek.png")

        # Four in a row: three columns filled, the scores shown, then the winning move.
        driver.get(base + "/fourow")
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.ID, "verdict").text == "Game is not over, yet."
        )
        moves = "444444333333222222"
        for ch in moves:
            before = driver.find_element(By.ID, "moves").text
            driver.find_element(By.ID, f"c{ch}r1").click()
            WebDriverWait(driver, 20).until(
                lambda d, b=before: d.find_element(By.ID, "moves").text != b
            )
        WebDriverWait(driver, 20).until(
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
        driver.find_element(By.ID, "c1r1").click()
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.ID, "verdict").text.startswith("Game is over")
        )
        verdict = driver.find_element(By.ID, "verdict").text
        check(verdict == "Game is over. The first player won.", f"verdict {verdict!r}")
        count_rows = driver.find_elements(By.CSS_SELECTOR, "#counts tbody tr")
        check(len(count_rows) == 17, f"positions per ply of 4×4: {len(count_rows)} rows")
        driver.save_screenshot("generated/web-fourow.png")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)
    print(
        f"verify-web: {checks} checks passed in {time.monotonic() - started:.1f} s; "
        "screenshots generated/web-tomek.png, generated/web-fourow.png"
    )


main()
