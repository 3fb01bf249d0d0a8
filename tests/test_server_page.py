"""The browser pages (interpreter/server/static: the lobby and the table), driven in Debian's
Chromium by Playwright, against a small fake server written here with aiohttp: it serves the
static folder, answers /api/games and /api/tables with canned answers and, on /ws, answers a
hello with a state frame in the shape docs/server.md (the protocol) gives, built by hand for a
tiny two-seat game, records what the page sends and answers each move with the next state.

The pages only show: what they are tested for is that they draw what a frame holds, send
exactly the messages the protocol names, and keep going when the connection drops.

Screenshots of both pages at a phone's and a desktop's width are taken by
test_pages_fit_phone_and_desktop_widths; with PAGE_SCREENSHOTS=docs/screenshots they are
kept there (otherwise in the test's own temporary folder)."""
from __future__ import annotations

import asyncio
import json
import os
import pathlib
import threading
import time

import pytest

web = pytest.importorskip("aiohttp.web")
sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

pytestmark = [pytest.mark.extras, pytest.mark.xdist_group("browser")]

STATIC = pathlib.Path(__file__).resolve().parent.parent / "interpreter" / "server" / "static"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TABLE, TOKEN = "T4bleId_0123456789abcd", "s3cret-Token_abcdefghijklmnopqrstuvwx"
# the policy the real server sends (no inline script or style): a page that breaks it logs an error
POLICY = ("default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
          "frame-ancestors 'none'")
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}

GAMES = {"games": [
    {"id": "hearts2", "title": "Hearts for two", "description": "Avoid hearts and the queen of spades.",
     "players": {"min": 2, "max": 2, "default": 2}, "languages": ["en", "fr", "no"],
     "options": [{"name": "target", "explain": "The score that ends the game.", "choices": ["50", "100"], "default": "100",
                  "explain_choices": ["a short game", "the usual game"]}],
     "bots": ["random", "mc", "ismcts"],
     "strengths": {bot: {"choices": ["quick", "normal", "strong"], "default": "normal",
                         "explain_choices": [f"{bot} {w}" for w in ("briefly", "as usual", "longest")]}
                   for bot in ("mc", "ismcts")}},
    {"id": "war", "title": "War", "description": "Higher card takes both.",
     "players": {"min": 2, "max": 4, "default": 2}, "languages": ["en"], "options": [],
     "bots": ["random"]},
]}


# ---- the tiny game the fake server plays: Ann (seat 0, the page) against a bot ------------------

def card(text, color="default"):
    return {"text": text, "color": color}


HAND = [card("A♠"), card("7♥", "red"), card("K♦", "red")]
MOVES = [{"index": 0, "label": "play 7♥", "card": card("7♥", "red")},
         {"index": 1, "label": "play K♦", "card": card("K♦", "red")},
         {"index": 2, "label": "pass", "card": None}]


def layout(hand, bot_played, to_play_you=True, score=(0, 0)):
    """playing/table_view.Layout as dataclasses.asdict gives it, for this game."""
    def row(seat, name, you, hidden, played):
        return {"seat": seat, "name": name, "you": you, "to_play": you == to_play_you, "out": False,
                "values": [["score", str(score[seat])]],
                "piles": [{"label": "hand", "groups": [], "hidden": hidden},
                          {"label": "card in the trick", "groups": [played] if played else [], "hidden": 0}]}
    return {"title": "High card", "round_label": "hand 1", "facts": ["aces are high"],
            "values": [["trick", "1"]],
            "shared": [{"label": "stock", "groups": [], "hidden": 12}],
            "rows": [row(0, "Ann", True, len(hand), []), row(1, "Robot", False, 2, bot_played)],
            "hand": [{"label": "hand", "groups": [hand], "hidden": 0}]}


def state(decisions, view, moves, account, over=False, result=None, seat=0, to_play=0, lang="en"):
    mine = bool(moves) and seat is not None
    return {"type": "state", "table": TABLE, "seat": seat, "decisions": decisions, "lang": lang,
            "title": "High card",
            "seats": [{"seat": 0, "name": "Ann", "kind": "person", "connected": True, "out": False},
                      {"seat": 1, "name": "Robot", "kind": "bot", "connected": True, "out": False}],
            "view": view, "to_play": to_play, "prompt": "Play a card" if mine else None,
            "moves": moves if mine else [], "account": account, "over": over, "result": result}


OPENING = [{"n": 0, "text": "The cards are dealt."}, {"n": 3, "text": "Robot leads Q♥."}]
RESULT = {"text": "Ann wins with 0 points.", "winners": ["Ann"],
          "scores": [{"name": "Ann", "score": 0}, {"name": "Robot", "score": 13}]}
ABANDONED = {"text": "Ann abandoned the game before its end.", "winners": [], "scores": [], "abandoned": "Ann"}


class Fake:
    """The fake server's script and what it heard."""

    def __init__(self):
        self.reset()

    def reset(self, **script):
        self.frames = []            # every frame the page sent on /ws, in order
        self.posted = []            # every POST /api/tables body
        self.entries = list(OPENING)
        self.decisions = 12
        self.hand = list(HAND)
        self.over = False
        self.seat = 0
        self.drop_after_hello = 0   # close the socket after this many hellos
        self.refuse = None          # an error code to answer moves with
        self.over_after = None      # the game ends after this many moves
        self.rematch_link = f"/table/NEWTABLE#{TOKEN}2"
        self.view_edit = None       # a function changing the view before it is sent
        self.delay = 0              # seconds before a move is answered
        self.drop_on_move = False   # close the socket on the first move, unanswered and unplayed
        self.forgetful = False      # answer every hello with the whole account, whatever its `since`
        self.lang = "en"            # the table's language
        self.uploads = None         # /api/games's "uploads" ({allowed, max_bytes}), or none
        self.uploaded = []          # (name, body) of every POST /api/games
        self.__dict__.update(script)

    def hellos(self):
        return [f for f in self.frames if f.get("type") == "hello"]

    def moves(self):
        return [f for f in self.frames if f.get("type") == "move"]

    def current(self, since):
        view = layout(self.hand, [card("Q♥", "red")], score=(0, 13) if self.over else (0, 0))
        if self.view_edit:
            self.view_edit(view)
        entries = [e for e in self.entries if since is None or e["n"] > since]
        return state(self.decisions, view, [] if self.over else MOVES, entries, over=self.over,
                     result=RESULT if self.over else None, seat=self.seat,
                     to_play=None if self.over else 0, lang=self.lang)

    def play(self, option):
        self.decisions += 1
        played = MOVES[option]["label"]
        self.entries.append({"n": self.entries[-1]["n"] + 2, "text": f"Ann: {played}."})
        self.hand = [c for c in self.hand if MOVES[option]["card"] is None or c["text"] != MOVES[option]["card"]["text"]]
        if self.over_after is not None and len(self.moves()) >= self.over_after:
            self.over = True


def application(fake: Fake):
    async def lobby(request):
        return web.FileResponse(STATIC / "lobby.html")

    async def table(request):
        return web.FileResponse(STATIC / "table.html")

    async def games(request):
        return web.json_response({**GAMES, **({"uploads": fake.uploads} if fake.uploads else {})})

    async def upload(request):
        body = await request.read()
        fake.uploaded.append((request.query.get("name"), body))
        if b"deck" not in body:
            return web.json_response({"error": "mine.yaml has problems", "problems": [
                "mine.yaml:1:1: missing required key 'deck'\n    <b>name</b>: x\n    ^"]}, status=400)
        return web.json_response({"game": {"id": "mine", "title": "My war", "description": "War, but mine.",
                                           "players": {"min": 2, "max": 2, "default": 2}, "languages": ["en"],
                                           "options": [], "bots": ["random"], "uploaded": True}}, status=201)

    async def tables(request):
        body = await request.json()
        fake.posted.append(body)
        if body.get("players") == 3:
            return web.json_response({"error": "seats: 3 seats named, the game has 2"}, status=400)
        seats = [{"seat": i, "name": s.get("name") or f"bot {s.get('bot')}", "kind": s["kind"]}
                 | ({"link": f"/table/{TABLE}#{TOKEN}{i}"} if s["kind"] == "person" else {})
                 for i, s in enumerate(body["seats"])]
        return web.json_response({"table": TABLE, "seats": seats, "spectator": f"/table/{TABLE}#watch"}, status=201)

    async def socket(request):
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        last = None                 # the last account entry this connection was sent
        async for message in ws:
            frame = json.loads(message.data)
            fake.frames.append(frame)
            kind = frame.get("type")
            if kind == "hello":
                answer = fake.current(None if fake.forgetful else frame.get("since"))
                await ws.send_json(answer)
                last = fake.entries[-1]["n"]
                if len(fake.hellos()) <= fake.drop_after_hello:
                    await ws.close()
            elif kind == "move" and fake.refuse:
                await ws.send_json({"type": "error", "code": fake.refuse, "message": "It is Robot's turn, not yours."})
            elif kind == "move" and fake.drop_on_move:
                fake.drop_on_move = False
                await ws.close()
            elif kind == "move":
                await asyncio.sleep(fake.delay)
                fake.play(frame["option"])
                await ws.send_json(fake.current(last))
                last = fake.entries[-1]["n"]
            elif kind in ("hint", "rules") and fake.refuse:
                await ws.send_json({"type": "error", "code": fake.refuse, "message": "It is Robot's turn, not yours."})
            elif kind in ("hint", "rules"):
                await ws.send_json({"type": kind, "text": f"The {kind} text: play K♦."})
            elif kind == "rematch":
                await ws.send_json({"type": "rematch", "link": fake.rematch_link})
            elif kind == "abandon":
                fake.over = True
                await ws.send_json(fake.current(last) | {"result": ABANDONED})
            elif kind == "ping":
                await ws.send_json({"type": "pong"})
        return ws

    async def static(request):
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    @web.middleware
    async def policy(request, handler):
        response = await handler(request)
        response.headers["Content-Security-Policy"] = POLICY
        return response

    app = web.Application(middlewares=[policy])
    app.add_routes([web.get("/", lobby), web.get("/table/{id}", table), web.get("/api/games", games),
                    web.post("/api/games", upload), web.post("/api/tables", tables), web.get("/ws", socket), web.get("/static/{name}", static)])
    return app


@pytest.fixture(scope="module")
def fake():
    fake = Fake()
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    runner = web.AppRunner(application(fake))

    def serve():
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        fake.base = "http://127.0.0.1:%d" % runner.addresses[0][1]
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10), "the fake server did not start"
    yield fake
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    home = tmp_path_factory.mktemp("browser-home")       # nothing of Chromium's lands in the user's home
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=env)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, fake):
    """open_page(path, viewport): a fresh page at `path` of the fake server; after the test,
    the page must have raised no script error."""
    contexts, errors = [], []

    def opener(path, viewport=DESKTOP):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(5000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not refused(m.text) else None)
        page.goto(fake.base + path)
        return page

    fake.reset()
    yield opener
    for context in contexts:
        context.close()
    assert errors == []


def refused(text):
    """Chromium's own line for an answer of 400 (a refusal the page shows: not a fault)."""
    return text.startswith("Failed to load resource") and "status of 400" in text


def until(condition, what, timeout=5.0):
    """Wait for something the fake server hears (the browser runs on its own meanwhile)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


def table_page(open_page, fake, viewport=DESKTOP):
    page = open_page(f"/table/{TABLE}#{TOKEN}", viewport)
    page.locator("#moves button").first.wait_for()
    return page


# ---- the lobby ------------------------------------------------------------------------------

def test_lobby_lists_each_game_with_its_description_and_players(open_page):
    page = open_page("/")
    games = page.locator("#games li")
    games.first.wait_for()
    assert games.count() == 2
    assert "Hearts for two" in games.nth(0).inner_text()
    assert "Avoid hearts and the queen of spades." in games.nth(0).inner_text()
    assert "2 players" in games.nth(0).inner_text()
    assert "2–4 players" in games.nth(1).inner_text()


def test_lobby_form_offers_the_chosen_games_options_with_their_explanations(open_page):
    page = open_page("/")
    page.locator("#game").wait_for()
    target = page.get_by_label("target")
    assert target.evaluate("s => [...s.options].map(o => o.value)") == ["50", "100"]
    assert target.input_value() == "100"
    assert page.locator("#options .explain").inner_text() == "The score that ends the game."
    assert target.evaluate("s => [...s.options].map(o => o.text)") == ["50 — a short game", "100 — the usual game"]
    page.get_by_role("button", name="Choose War").click()
    assert page.locator("#options-box").is_hidden()
    assert page.locator("#players").evaluate("s => [...s.options].map(o => o.value)") == ["2", "3", "4"]


def test_lobby_makes_a_table_with_the_chosen_seats_and_shows_each_persons_link(open_page, fake):
    page = open_page("/")
    page.locator("#game").wait_for()
    page.get_by_label("target").select_option("50")
    page.get_by_label("Language").select_option("fr")
    page.get_by_label("Seat 1: name").fill("Ann")
    page.get_by_label("Seat 2: which bot").select_option("mc")
    page.get_by_role("button", name="Make the table").click()
    page.locator("#made").wait_for()
    assert fake.posted == [{"game": "hearts2", "players": 2, "options": {"target": "50"}, "lang": "fr",
                            "seats": [{"kind": "person", "name": "Ann"},
                                      {"kind": "bot", "bot": "mc", "strength": "normal"}]}]
    assert page.locator("#seat-link-0").input_value() == f"{fake.base}/table/{TABLE}#{TOKEN}0"
    assert page.locator("#spectator-link").input_value() == f"{fake.base}/table/{TABLE}#watch"
    assert "a bot" in page.locator("#links li").nth(1).inner_text()
    assert page.get_by_role("button", name="Copy the link for Seat 1: Ann").is_visible()


def test_lobby_offers_a_planning_bot_its_strengths_and_makes_the_table_with_the_one_chosen(open_page, fake):
    page = open_page("/")
    page.locator("#game").wait_for()
    strength = page.get_by_label("Seat 2: how strong a bot")
    assert strength.is_hidden()                         # the random bot, first offered, has none
    page.get_by_label("Seat 2: which bot").select_option("ismcts")
    assert strength.is_visible() and strength.input_value() == "normal"
    assert strength.evaluate("s => [...s.options].map(o => o.text)") == [
        "quick — ismcts briefly", "normal — ismcts as usual", "strong — ismcts longest"]
    strength.focus()
    page.keyboard.press("ArrowDown")                    # chosen by keyboard, as any select
    assert strength.input_value() == "strong"
    page.get_by_role("button", name="Make the table").click()
    page.locator("#made").wait_for()
    assert fake.posted[-1]["seats"][1] == {"kind": "bot", "bot": "ismcts", "strength": "strong"}


def test_lobby_sends_no_strength_for_a_bot_that_has_none(open_page, fake):
    page = open_page("/")
    page.get_by_role("button", name="Choose War").click()
    assert page.get_by_label("Seat 2: how strong a bot").is_hidden()
    page.get_by_role("button", name="Make the table").click()
    page.locator("#made").wait_for()
    assert fake.posted[-1]["seats"][1] == {"kind": "bot", "bot": "random"}


@pytest.mark.parametrize("locale,words", [
    ("fr-FR", {"heading": "Créer une table", "make": "Créer la table", "players": "2 joueurs", "seat": "Place 1",
               "person": "une personne", "lang": "fr"}),
    ("nb-NO", {"heading": "Lag et bord", "make": "Lag bordet", "players": "2 spillere", "seat": "Plass 1",
               "person": "en person", "lang": "no"}),
    ("de-DE", {"heading": "Make a table", "make": "Make the table", "players": "2 players", "seat": "Seat 1",
               "person": "a person", "lang": "en"}),
], ids=["French", "Norwegian Bokmål", "a language not ours: English"])
def test_the_lobby_speaks_the_browsers_language(browser, fake, locale, words):
    fake.reset()
    context = browser.new_context(locale=locale)
    try:
        page = context.new_page()
        page.goto(fake.base + "/")
        page.locator("#table-form").wait_for()
        assert page.evaluate("document.documentElement.lang") == words["lang"]
        assert page.locator("#form-heading").inner_text() == words["heading"]
        assert page.locator("#make").inner_text() == words["make"]
        assert page.locator("#games .players").first.inner_text() == words["players"]
        assert page.locator("#seats .seat-number").first.inner_text() == words["seat"]
        assert page.locator("#seat-0-kind option").first.inner_text() == words["person"]
        if words["lang"] != "en":                       # the table's language offered first: the lobby's
            assert page.locator("#lang").input_value() == words["lang"]
    finally:
        context.close()


def test_lobby_offers_no_upload_unless_the_server_takes_them(open_page, fake):
    page = open_page("/")
    page.locator("#games li").first.wait_for()
    assert page.locator("#upload-box").is_hidden()


def test_an_uploaded_ruleset_is_sent_as_it_is_and_offered_at_once(open_page, fake, tmp_path):
    fake.uploads = {"allowed": True, "max_bytes": 1048576}
    page = open_page("/")
    page.get_by_role("heading", name="Offer a game of your own").wait_for()
    assert "at most 1 MiB" in page.locator("#upload-box").inner_text()
    mine = tmp_path / "mine.yaml"
    mine.write_bytes("name: mine\ndeck: {}\ntitle: My war ♠\n".encode())
    page.get_by_label("The ruleset's file").set_input_files(str(mine))
    page.get_by_role("button", name="Check and offer it").click()
    page.locator("#upload-status", has_text="My war is offered now").wait_for()
    assert fake.uploaded == [("mine.yaml", mine.read_bytes())]
    assert "My war" in page.locator("#games").inner_text()
    assert page.locator("#game").input_value() == "mine"
    assert page.locator("#game-description").inner_text() == "War, but mine."


def test_an_uploaded_rulesets_problems_are_shown_as_the_server_words_them(open_page, fake, tmp_path):
    fake.uploads = {"allowed": True, "max_bytes": 1048576}
    page = open_page("/")
    bad = tmp_path / "mine.yaml"
    bad.write_text("<b>name</b>: x\n")
    page.get_by_label("The ruleset's file").set_input_files(str(bad))
    page.get_by_role("button", name="Check and offer it").click()
    page.locator("#upload-status", has_text="Not offered: mine.yaml has problems.").wait_for()
    problem = page.locator("#upload-problems pre")
    assert problem.inner_text() == "mine.yaml:1:1: missing required key 'deck'\n    <b>name</b>: x\n    ^"
    assert page.locator("#upload-problems b").count() == 0             # text, never markup
    assert "mine" not in [o for o in page.locator("#game option").all_inner_texts()]


def test_a_file_larger_than_the_server_takes_is_not_sent(open_page, fake, tmp_path):
    fake.uploads = {"allowed": True, "max_bytes": 10}
    page = open_page("/")
    big = tmp_path / "big.yaml"
    big.write_text("name: a long one\n")
    page.get_by_label("The ruleset's file").set_input_files(str(big))
    page.get_by_role("button", name="Check and offer it").click()
    page.locator("#upload-status", has_text="larger than").wait_for()
    assert fake.uploaded == []


def test_lobby_shows_a_refused_table_in_the_servers_words(open_page, fake):
    page = open_page("/")
    page.get_by_role("button", name="Choose War").click()
    page.locator("#players").select_option("3")
    page.get_by_role("button", name="Make the table").click()
    error = page.locator("#form-error")
    error.wait_for()
    assert error.inner_text() == "The table was not made: seats: 3 seats named, the game has 2"
    assert page.locator("#made").is_hidden()


# ---- the table ------------------------------------------------------------------------------

def test_table_says_hello_with_the_table_and_the_secret_from_the_fragment(open_page, fake):
    table_page(open_page, fake)
    assert fake.hellos() == [{"type": "hello", "table": TABLE, "token": TOKEN}]


def test_table_draws_the_hand_the_other_seats_the_shared_zones_and_the_account(open_page, fake):
    page = table_page(open_page, fake)
    assert page.locator("#hand .card").all_inner_texts() == ["A♠", "7♥", "K♦"]
    assert page.locator("#hand .card").nth(1).evaluate("c => getComputedStyle(c).color") == "rgb(192, 21, 47)"
    robot = page.locator("#seats li").nth(1)
    assert "Robot" in robot.inner_text() and "bot" in robot.inner_text()
    assert robot.get_by_role("img", name="2 cards").is_visible()
    assert robot.locator(".card:not(.back)").all_inner_texts() == ["Q♥"]
    assert page.locator("#shared").get_by_role("img", name="12 cards").is_visible()
    assert page.locator("#values").inner_text().replace("\n", " ") == "trick 1"
    assert page.locator("#title").inner_text() == "High card"
    assert page.locator("#account li").all_inner_texts() == ["The cards are dealt.", "Robot leads Q♥."]
    assert page.locator("#account").get_attribute("aria-live") == "polite"     # from now on; the history was not read out


def test_your_own_hand_in_your_row_is_counted_not_drawn_face_down(open_page, fake):
    """The layout counts the seat's own hand in its row (it is drawn whole below): the page
    says how many cards, not card backs, which would read as cards you cannot see."""
    page = table_page(open_page, fake)
    ann = page.locator("#seats li").nth(0)
    assert ann.locator(".card.back").count() == 0
    assert "3 cards, shown below" in ann.inner_text()


def test_table_offers_the_moves_with_the_prompt_and_tells_a_screen_reader_it_is_your_turn(open_page, fake):
    page = table_page(open_page, fake)
    assert page.locator("#turn").inner_text() == "Your turn: Play a card"
    assert page.locator("#announce").inner_text() == "Your turn: Play a card"
    buttons = page.locator("#moves button")
    assert [buttons.nth(i).get_attribute("aria-label") for i in range(3)] == ["play 7♥", "play K♦", "pass"]
    assert buttons.nth(0).locator(".card").inner_text() == "7♥"


def test_clicking_a_move_sends_its_index_with_the_decision_count_it_was_offered_at(open_page, fake):
    page = table_page(open_page, fake)
    page.get_by_role("button", name="play K♦").click()
    assert until(fake.moves, "a move") == [{"type": "move", "decision": 12, "option": 1}]
    page.locator("#account li", has_text="Ann: play K♦.").wait_for()
    assert page.locator("#hand .card").all_inner_texts() == ["A♠", "7♥"]


def test_a_playable_card_in_the_hand_plays_it_when_clicked(open_page, fake):
    page = table_page(open_page, fake)
    page.locator("#hand .card.playable", has_text="7♥").click()
    assert until(fake.moves, "a move") == [{"type": "move", "decision": 12, "option": 0}]


def test_a_digit_picks_the_numbered_move(open_page, fake):
    page = table_page(open_page, fake)
    page.keyboard.press("3")
    assert until(fake.moves, "a move") == [{"type": "move", "decision": 12, "option": 2}]


def test_every_move_is_reached_by_tab_and_made_with_enter(open_page, fake):
    page = table_page(open_page, fake)
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('aria-label')") == "play K♦":
            break
    else:
        raise AssertionError("Tab never reached the move 'play K♦'")
    page.keyboard.press("Enter")
    assert until(fake.moves, "a move") == [{"type": "move", "decision": 12, "option": 1}]


def test_after_a_move_made_by_keyboard_the_focus_is_on_the_next_moves(open_page, fake):
    page = table_page(open_page, fake)
    page.get_by_role("button", name="pass").focus()
    page.keyboard.press("Enter")
    page.locator("#account li", has_text="Ann: pass.").wait_for()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "play 7♥"
    page.keyboard.press("Enter")
    until(lambda: len(fake.moves()) == 2, "a second move")
    assert fake.moves()[1] == {"type": "move", "decision": 13, "option": 0}


def test_a_move_is_sent_once_while_its_answer_is_awaited(open_page, fake):
    fake.reset(delay=0.5)
    page = table_page(open_page, fake)
    page.keyboard.press("1")
    until(fake.moves, "a move")
    assert page.get_by_role("button", name="play K♦").get_attribute("aria-disabled") == "true"
    page.keyboard.press("2")
    page.get_by_role("button", name="play K♦").click(force=True)     # force: Playwright waits while aria-disabled
    page.locator("#account li", has_text="Ann: play 7♥.").wait_for()
    assert fake.moves() == [{"type": "move", "decision": 12, "option": 0}]


def test_an_error_frame_is_shown_in_words_and_the_moves_stay_offered(open_page, fake):
    fake.reset(refuse="not_your_turn")
    page = table_page(open_page, fake)
    page.get_by_role("button", name="pass").click()
    notice = page.get_by_role("alert")
    notice.wait_for()
    assert notice.inner_text() == "It is Robot's turn, not yours."
    assert page.get_by_role("button", name="pass").get_attribute("aria-disabled") is None
    page.get_by_role("button", name="pass").click()
    until(lambda: len(fake.moves()) == 2, "a second try")


def test_a_dropped_socket_reconnects_by_itself_saying_hello_with_since(open_page, fake):
    fake.reset(drop_after_hello=1)
    page = open_page(f"/table/{TABLE}#{TOKEN}")
    hellos = until(lambda: fake.hellos()[1:] and fake.hellos(), "a second hello")
    assert hellos == [{"type": "hello", "table": TABLE, "token": TOKEN},
                      {"type": "hello", "table": TABLE, "token": TOKEN, "since": 3}]
    page.get_by_role("status").filter(has_text="Connected").wait_for()
    page.get_by_role("button", name="pass").click()
    page.locator("#account li", has_text="Ann: pass.").wait_for()
    assert page.locator("#account li").all_inner_texts() == ["The cards are dealt.", "Robot leads Q♥.", "Ann: pass."]


def test_an_account_entry_sent_again_after_a_reconnect_is_shown_once(open_page, fake):
    fake.reset(drop_after_hello=1, forgetful=True)
    page = open_page(f"/table/{TABLE}#{TOKEN}")
    until(lambda: len(fake.hellos()) == 2, "a second hello")
    page.get_by_role("status").filter(has_text="Connected").wait_for()
    page.locator("#moves button").first.wait_for()
    assert page.locator("#account li").all_inner_texts() == ["The cards are dealt.", "Robot leads Q♥."]


def test_a_move_lost_with_the_connection_can_be_made_again_after_the_reconnect(open_page, fake):
    fake.reset(drop_on_move=True)
    page = table_page(open_page, fake)
    page.get_by_role("button", name="play 7♥").click()
    until(lambda: len(fake.hellos()) == 2, "a second hello")
    page.get_by_role("status").filter(has_text="Connected").wait_for()
    page.get_by_role("button", name="play 7♥").click()
    until(lambda: len(fake.moves()) == 2, "the move made again")
    assert fake.moves() == [{"type": "move", "decision": 12, "option": 0}] * 2


def test_the_result_and_a_rematch_appear_when_the_game_is_over(open_page, fake):
    fake.reset(over_after=1)
    page = table_page(open_page, fake)
    assert page.locator("#result-section").is_hidden()
    page.get_by_role("button", name="play 7♥").click()
    page.locator("#result-section").wait_for()
    assert page.locator("#result-text").inner_text() == "Ann wins with 0 points."
    assert page.locator("#winners").inner_text() == "Winner: Ann"
    assert page.locator("#scores tbody tr").all_inner_texts() == ["Ann\t0", "Robot\t13"]
    assert page.locator("#moves button").count() == 0
    assert page.locator("#seats li.to-play").count() == 0
    assert page.locator("#announce").inner_text() == "The game is over. Ann wins with 0 points."
    assert page.locator("#record-link").get_attribute("href") == f"/api/tables/{TABLE}/record?token={TOKEN}"
    page.get_by_role("button", name="Rematch").click()
    link = page.locator("#rematch a")
    link.wait_for()
    assert fake.frames[-1] == {"type": "rematch"}
    assert link.get_attribute("href") == f"{fake.base}/table/NEWTABLE#{TOKEN}2"


def test_a_rematch_link_to_another_site_is_not_shown(open_page, fake):
    fake.reset(over_after=1, rematch_link="https://elsewhere.example/table/x#y")
    page = table_page(open_page, fake)
    page.keyboard.press("1")
    page.get_by_role("button", name="Rematch").click()
    until(lambda: fake.frames[-1] == {"type": "rematch"}, "a rematch asked")
    page.wait_for_timeout(300)
    assert page.locator("#rematch a").count() == 0


def test_hint_and_rules_answers_are_shown_in_a_panel(open_page, fake):
    page = table_page(open_page, fake)
    page.get_by_role("button", name="Hint").click()
    page.locator("#panel-text", has_text="The hint text").wait_for()
    assert page.locator("#panel-heading").inner_text() == "Hint"
    assert page.evaluate("document.activeElement.id") == "panel-heading"
    page.get_by_role("button", name="Rules").click()
    page.locator("#panel-text", has_text="The rules text").wait_for()
    assert page.locator("#panel-heading").inner_text() == "Rules"
    assert fake.frames[1:] == [{"type": "hint"}, {"type": "rules"}]


def test_abandoning_asks_first_then_ends_the_game_with_its_record(open_page, fake):
    page = table_page(open_page, fake)
    page.get_by_role("button", name="Abandon").click()
    question = page.get_by_role("alertdialog")
    assert question.is_visible() and "every player" in question.inner_text()
    assert page.evaluate("document.activeElement.id") == "abandon-no"
    page.get_by_role("button", name="No, play on").click()
    assert question.is_hidden() and page.evaluate("document.activeElement.id") == "abandon-button"
    assert fake.frames[1:] == []
    page.get_by_role("button", name="Abandon").click()
    page.get_by_role("button", name="Yes, abandon the game").click()
    page.locator("#result-section").wait_for()
    assert fake.frames[1:] == [{"type": "abandon"}]
    assert page.locator("#result-text").inner_text() == ABANDONED["text"]
    assert page.locator("#scores").is_hidden() and page.locator("#moves button").count() == 0
    assert page.get_by_role("button", name="Abandon").is_hidden()
    assert page.locator("#record-link").is_visible()


@pytest.mark.parametrize("lang,words", [
    ("fr", {"hint": "Conseil", "rules": "Règles", "abandon": "Abandonner", "turn": "À vous : Play a card",
            "account": "Ce qui s'est passé", "connection": "Connecté", "you": "(vous)"}),
    ("no", {"hint": "Hint", "rules": "Regler", "abandon": "Avbryt spillet", "turn": "Din tur: Play a card",
            "account": "Hva som har skjedd", "connection": "Tilkoblet", "you": "(deg)"}),
    ("el", {"hint": "Υπόδειξη", "rules": "Κανόνες", "abandon": "Εγκατάλειψη", "turn": "Σειρά σας: Play a card",
            "account": "Τι έγινε", "connection": "Συνδεδεμένο", "you": "(εσείς)"}),
])
def test_the_page_speaks_the_tables_language(open_page, fake, lang, words):
    fake.reset(lang=lang)
    page = table_page(open_page, fake)
    page.locator("#connection", has_text=words["connection"]).wait_for()
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#hint-button").inner_text() == words["hint"]
    assert page.locator("#rules-button").inner_text() == words["rules"]
    assert page.locator("#abandon-button").inner_text() == words["abandon"]
    assert page.locator("#turn").inner_text() == words["turn"]
    assert page.locator("#account-heading").inner_text() == words["account"]
    assert page.locator("#seats .you-tag").inner_text() == words["you"]


def test_at_a_table_in_another_language_a_refusal_is_said_in_it_and_an_unanswered_hint_closes(open_page, fake):
    fake.reset(lang="fr", refuse="not_your_turn")
    page = table_page(open_page, fake)
    page.locator("#connection", has_text="Connecté").wait_for()
    page.get_by_role("button", name="Conseil").click()
    page.locator("#notice", has_text="Ce n'est pas à vous.").wait_for()
    assert page.locator("#panel").is_hidden()


def test_every_language_of_the_page_has_every_word_english_has(open_page, fake):
    page = open_page(f"/table/{TABLE}#{TOKEN}")
    found = page.evaluate("""async () => {
        const { WORDS } = await import("/static/words.js");
        const used = [...document.querySelectorAll("[data-say]")].map((n) => n.dataset.say)
          .concat([...document.querySelectorAll("[data-say-label]")].map((n) => n.dataset.sayLabel));
        const english = Object.keys(WORDS.en);
        const out = { used: used.filter((k) => !english.includes(k)) };
        for (const [lang, words] of Object.entries(WORDS)) {
          out[lang] = english.filter((k) => !(k in words)).concat(Object.keys(words).filter((k) => !english.includes(k)));
        }
        return out;
    }""")
    assert found.pop("used") == []
    assert list(found) == ["en", "fr", "no", "da", "el"]          # messages.CATALOG's languages
    assert all(not keys for keys in found.values()), found


def test_a_spectator_sees_no_hand_no_moves_and_no_rematch(open_page, fake):
    fake.reset(seat=None, over=True)
    page = open_page(f"/table/{TABLE}#{TOKEN}")
    page.locator("#result-section").wait_for()
    assert page.locator("#hand-section").is_hidden()
    assert page.locator("#moves button").count() == 0
    assert page.get_by_role("button", name="Rematch").is_hidden()
    assert page.get_by_role("button", name="Abandon").is_hidden()
    assert page.locator("#watching").is_visible()


def test_texts_from_a_game_are_shown_as_written_never_as_markup(open_page, fake):
    def hostile(view):
        view["rows"][1]["name"] = "<img src=x onerror=window.pwned=1>"
        view["hand"][0]["groups"][0][0] = card("<b>A</b>", "red;background:url(x)")
    fake.reset(view_edit=hostile)
    page = table_page(open_page, fake)
    assert page.locator("#seats li").nth(1).locator(".name").inner_text() == "<img src=x onerror=window.pwned=1>"
    assert page.locator("#hand .card").first.inner_text() == "<b>A</b>"
    assert page.locator("#hand .card").first.get_attribute("style") is None
    assert page.locator("img").count() == 0 and page.evaluate("window.pwned") is None


def test_a_secret_with_a_broken_escape_is_sent_as_written(open_page, fake):
    open_page(f"/table/{TABLE}#ab%zz")
    assert until(fake.hellos, "a hello") == [{"type": "hello", "table": TABLE, "token": "ab%zz"}]


def test_a_link_without_its_secret_says_so_and_connects_nowhere(open_page, fake):
    page = open_page(f"/table/{TABLE}")
    assert "no seat secret" in page.get_by_role("alert").inner_text()
    page.wait_for_timeout(200)
    assert fake.frames == []


# ---- phone and desktop ----------------------------------------------------------------------

def _long_game(view):
    view["rows"][1]["piles"][1]["groups"] = [[card("Q♥", "red")], [card("10♣"), card("J♣")]]
    view["shared"].append({"label": "dead cards", "groups": [[card("2♣"), card("3♦", "red")]], "hidden": 2})


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 640}, PHONE, DESKTOP], ids=["320", "phone", "desktop"])
@pytest.mark.parametrize("where", ["lobby", "links", "table"])
def test_pages_fit_phone_and_desktop_widths(open_page, fake, viewport, where, tmp_path):
    if where == "lobby":
        page = open_page("/", viewport)
        page.locator("#games li").first.wait_for()
    elif where == "links":
        page = open_page("/", viewport)
        page.get_by_label("Seat 1: name").fill("Ann")
        page.get_by_role("button", name="Make the table").click()
        page.locator("#made").wait_for()
    else:
        fake.reset(view_edit=_long_game,
                   entries=OPENING + [{"n": 4 + i, "text": f"Note {i}: Robot thinks."} for i in range(8)])
        page = table_page(open_page, fake, viewport)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    name = {320: "narrow", PHONE["width"]: "phone"}.get(viewport["width"], "desktop")
    kept = os.environ.get("PAGE_SCREENSHOTS") if name != "narrow" else None     # docs/ has phone and desktop
    folder = pathlib.Path(kept or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{where}-{name}.png"), full_page=True)


# ---- the real server, once it is there ----------------------------------------------------------

def _real_server(tmp_path):
    """`interpret serve` on a free port, its tables in tmp_path; its address, and the process."""
    import importlib.util
    import subprocess
    import sys
    if importlib.util.find_spec("interpreter.server.app") is None:
        pytest.skip("the server (interpreter/server/app.py) is not in this checkout yet")
    root = pathlib.Path(__file__).resolve().parent.parent
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(root)}
    code = 'import sys; sys.argv[0] = "interpret"; from interpreter.cli import main; main()'
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "--db", str(tmp_path / "tables.sqlite3"), "--port", "0"],
                              cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = server.stdout.readline()
    found = next((w for w in line.split() if w.startswith("http://")), None)
    if found is None:
        server.kill()
        raise AssertionError(f"interpret serve said {line!r}")
    return found.rstrip("/"), server


def _play_first_move(page) -> bool:
    buttons = page.locator("#moves button:not([aria-disabled])")
    if not buttons.count():
        return False
    try:
        buttons.first.click(timeout=1000)
    except sync_api.Error:
        return False            # drawn again meanwhile: the next round of the loop
    return True


@pytest.mark.slow
def test_two_browsers_play_a_whole_hearts2_game_on_the_real_server_and_a_third_takes_over_mid_game(browser, tmp_path):
    import urllib.request
    base, server = _real_server(tmp_path)
    try:
        request = urllib.request.Request(base + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"game": "hearts2", "players": 2, "options": {}, "lang": "en",
                                                          "seats": [{"kind": "person", "name": "Ann"},
                                                                    {"kind": "person", "name": "Bo"}]}).encode())
        made = json.load(urllib.request.urlopen(request, timeout=10))
        links = [base + s["link"] for s in made["seats"]]
        errors = []

        def watched(page):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            return page
        contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
        pages = [watched(c.new_page()) for c in contexts]
        for page, link in zip(pages, links):
            page.goto(link)
        moves, end = 0, time.monotonic() + 300
        while not all(p.locator("#result-section").is_visible() for p in pages):
            assert time.monotonic() < end, f"the game did not end ({moves} moves made)"
            for page in pages:
                moves += _play_first_move(page)
            if moves == 20:             # Bo's browser goes away; another one opens Bo's link and plays on
                contexts[1].close()
                contexts[1] = browser.new_context(viewport=DESKTOP)
                pages[1] = watched(contexts[1].new_page())
                pages[1].goto(links[1])
                pages[1].locator("#hand .card").first.wait_for()
                watcher = watched(browser.new_context().new_page())
                watcher.goto(base + made["spectator"])
                watcher.locator("#seats li").first.wait_for()
                assert watcher.locator("#hand .card").count() == 0 and watcher.locator("#moves button").count() == 0
                moves += 1
            time.sleep(0.01)
        texts = [p.locator("#result-text").inner_text() for p in pages]
        assert texts[0] == texts[1] and texts[0]
        token = links[0].split("#", 1)[1]
        record = json.load(urllib.request.urlopen(f"{base}/api/tables/{made['table']}/record?token={token}", timeout=10))
        assert record
        assert errors == []
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.slow
def test_a_strength_chosen_in_the_lobby_of_the_real_server_is_the_bot_its_table_is_made_with(browser, tmp_path):
    import sqlite3
    base, server = _real_server(tmp_path)
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.set_default_timeout(60_000)                # the lobby's list builds every shipped game once
        page.goto(base + "/")
        page.locator("#game").select_option("hearts2")
        page.get_by_label("Seat 2: which bot").select_option("mc")
        page.get_by_label("Seat 2: how strong a bot").select_option("quick")
        page.get_by_role("button", name="Make the table").click()
        page.locator("#made").wait_for()
        assert "Seat 2: Player 2 (mc bot, quick)" in page.locator("#links").inner_text()
    finally:
        server.terminate()
        server.wait(10)
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        (bot,) = db.execute("SELECT bot FROM seats WHERE seat = 1").fetchone()
    from interpreter.server.games import STRENGTHS
    assert json.loads(bot) == STRENGTHS["mc"]["quick"]
