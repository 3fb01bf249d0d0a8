"""Screenshots of a real hearts2 table (docs/screenshots/hearts2-real-*.png): starts `interpret serve`
on port 8766 with a database in the current folder, makes a table of a person against a random bot,
plays a few moves by clicking in Debian's Chromium, and saves the table at desktop and phone widths.
Run from an empty folder: python /path/to/docs/screenshots/take_real.py (PYTHONPATH: the checkout)."""
import json, subprocess, sys, time, urllib.request, os
from playwright.sync_api import sync_playwright
env = dict(os.environ)
srv = subprocess.Popen([sys.executable, "-c", 'import sys; sys.argv[0]="interpret"; from interpreter.cli import main; main()',
                        "serve", "--port", "8766", "--db", "db.sqlite3"], env=env, cwd=".")
try:
    time.sleep(3)
    req = urllib.request.Request("http://127.0.0.1:8766/api/tables", data=json.dumps({"game": "hearts2", "players": 2,
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]}).encode(), method="POST")
    t = json.load(urllib.request.urlopen(req))
    link = "http://127.0.0.1:8766" + t["seats"][0]["link"]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu",
              "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"])
        for name, size in (("desktop", (1280, 800)), ("phone", (390, 844))):
            pg = b.new_page(viewport={"width": size[0], "height": size[1]})
            pg.goto(link); pg.wait_for_timeout(1500)
            for _ in range(6):          # a few moves in, so the trick and the account have something
                btn = pg.query_selector("#moves button:not([disabled])") or pg.query_selector("button.move:not([disabled])")
                if not btn: break
                btn.click(); pg.wait_for_timeout(400)
            pg.screenshot(path=f"hearts2-real-{name}.png", full_page=False)
            pg.close()
        b.close()
finally:
    srv.terminate(); srv.wait()
