"""Screenshots of the real server (docs/screenshots/*-real-*.png): starts `interpret serve
--allow-uploads` on port 8766 with a database in the current folder; saves the lobby (with
its upload box), a hearts2 table of a person against a random bot a few moves in, and the same
game in Greek (the page speaks the table's language), at desktop and phone widths.
Run from an empty folder: python /path/to/docs/screenshots/take_real.py (PYTHONPATH: the checkout);
the pictures land in that folder."""
import json
import os
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

BASE = "http://127.0.0.1:8766"
SIZES = (("desktop", (1280, 800)), ("phone", (390, 844)))


def table(lang: str) -> str:
    request = urllib.request.Request(f"{BASE}/api/tables", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"game": "hearts2", "players": 2, "lang": lang, "seats": [
                                         {"kind": "person", "name": "Ann"},
                                         {"kind": "bot", "bot": "ismcts", "strength": "quick"}]}).encode())
    return BASE + json.load(urllib.request.urlopen(request))["seats"][0]["link"]


def a_few_moves(page) -> None:
    page.wait_for_timeout(1500)
    for _ in range(6):          # so the trick and the account have something
        button = page.query_selector("#moves button:not([aria-disabled])")
        if not button:
            break
        button.click()
        page.wait_for_timeout(600)


def main() -> None:
    server = subprocess.Popen([sys.executable, "-c", 'import sys; sys.argv[0]="interpret"; '
                               'from interpreter.cli import main; main()', "serve", "--port", "8766",
                               "--db", "db.sqlite3", "--allow-uploads"], env=dict(os.environ))
    try:
        time.sleep(4)
        links = {"en": table("en"), "el": table("el")}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"])
            for name, (width, height) in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(BASE + "/")
                page.locator("#table-form").wait_for()
                page.select_option("#seat-1-kind", "bot")
                page.select_option("#seat-1-bot", "ismcts")
                page.screenshot(path=f"lobby-real-{name}.png", full_page=True)
                page.close()
                for lang, link in links.items():
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(link)
                    a_few_moves(page)
                    page.screenshot(path=f"hearts2-real-{name}.png" if lang == "en" else f"hearts2-real-{lang}-{name}.png")
                    page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
