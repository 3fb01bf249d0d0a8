"""--log writes what happened as typed events (docs/events.md): a header line, then moves,
reveals, decisions, scores and rounds, each as the viewing seat may see it; --json gives
a result with the same keys for every ruleset.  Seats are numbered from 1 everywhere."""
import io
import json
from pathlib import Path

import pytest

from interpreter.cli.main import run

ROOT = Path(__file__).parent.parent
GAMES = ["hearts2", "gnav", "gnav2", "ninety_nine"]


def events_of(tmp_path, *argv):
    log = tmp_path / "events.jsonl"
    out = io.StringIO()
    assert run([*argv, "--log", str(log), "--quiet"], stdin=io.StringIO(""), stdout=out, stderr=io.StringIO()) == 0
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_the_log_starts_with_a_header_naming_the_game_its_hash_seed_options_and_players(tmp_path):
    header = events_of(tmp_path, "hearts2", "--seed", "3", "--option", "target_score=50")[0]
    assert header["type"] == "game" and header["ruleset"] == "hearts2" and header["seed"] == 3
    assert len(header["sha256"]) == 64 and header["options"]["target_score"] == 50
    assert header["players"] == [{"seat": 1, "name": "Player 1", "kind": "bot"},
                                 {"seat": 2, "name": "Player 2", "kind": "bot"}]
    assert header["view"] is None


def test_a_deal_is_a_move_per_seat_with_the_cards_ids_and_names(tmp_path):
    events = events_of(tmp_path, "hearts2", "--seed", "3")
    deals = [e for e in events if e["type"] == "move" and e["to"]["zone"] == "hand"][:2]
    assert [d["to"]["seat"] for d in deals] == [1, 2] or [d["to"]["seat"] for d in deals] == [2, 1]
    assert all(d["count"] == 13 and len(d["cards"]) == 13 and len(d["names"]) == 13 for d in deals)
    assert deals[0]["from"] == {"zone": "stock"}


def test_a_card_played_is_a_decision_then_a_move_from_hand_to_the_table(tmp_path):
    events = events_of(tmp_path, "hearts2", "--seed", "3")
    i = next(i for i, e in enumerate(events) if e["type"] == "decision")
    decision = events[i]
    move = next(e for e in events[i:] if e["type"] == "move")
    assert move["from"] == {"zone": "hand", "seat": decision["seat"]}
    assert move["to"] == {"zone": "played", "seat": decision["seat"]}
    assert decision["label"].endswith(move["names"][0])


def test_each_round_begins_and_ends_and_its_score_changes_are_events(tmp_path):
    events = events_of(tmp_path, "hearts2", "--seed", "3")
    rounds = [e["number"] for e in events if e["type"] == "round"]
    ends = [e["number"] for e in events if e["type"] == "round_end"]
    assert rounds == list(range(1, len(rounds) + 1)) and ends == rounds
    first_end = next(i for i, e in enumerate(events) if e["type"] == "round_end")
    scores = [e for e in events[:first_end] if e["type"] == "score" and e["variable"] == "score"]
    assert {e["seat"] for e in scores} <= {1, 2} and scores
    pot = [e for e in events_of(tmp_path, "gnav", "--seed", "4") if e["type"] == "score" and "seat" not in e]
    assert pot and all(e["variable"] == "pot" for e in pot)     # a shared value shown
    assert all(e["variable"] == "score" and e["change"] == e["after"] - e["before"] for e in scores)


def test_a_seats_view_hides_the_cards_of_moves_it_could_not_see(tmp_path):
    events = events_of(tmp_path, "hearts2", "--seed", "3", "--view", "1")
    assert events[0]["view"] == 1
    hands = [e for e in events if e["type"] == "move" and e["to"] == {"zone": "hand", "seat": 2}]
    assert hands and all("cards" not in e and e["count"] for e in hands)
    dead = [e for e in events if e["type"] == "move" and e["to"] == {"zone": "dead"}]
    assert dead and all("cards" not in e for e in dead)
    mine = [e for e in events if e["type"] == "move" and e["to"] == {"zone": "hand", "seat": 1}]
    assert mine and all(len(e["cards"]) == e["count"] for e in mine)
    assert all(e.get("to") in (None, 1) for e in events if e["type"] == "say")
    assert all("label" not in e for e in events if e["type"] == "decision" and e["seat"] != 1)


def test_an_exchange_between_two_hands_shows_each_side_only_to_those_who_hold_it(tmp_path):
    events = events_of(tmp_path, "gnav", "--seed", "4", "--players", "4", "--view", "2")
    moves = [e for e in events if e["type"] == "move" and e["from"].get("zone") == "hand" and e["to"].get("zone") == "hand"]
    assert moves
    assert all(("cards" in e) == (2 in (e["from"]["seat"], e["to"]["seat"])) for e in moves)


@pytest.mark.parametrize("game", GAMES)
def test_the_json_result_has_the_same_keys_for_every_ruleset(game):
    out = io.StringIO()
    assert run([game, "--seed", "2", "--json"], stdout=out) == 0
    r = json.loads(out.getvalue())
    assert set(r) == {"ruleset", "seed", "decisions", "options", "winners", "winner_names", "players", "shown"}
    assert all(set(p) == {"seat", "name", "kind", "score", "won", "out", "shown"} for p in r["players"])
    assert [p["seat"] for p in r["players"]] == list(range(1, len(r["players"]) + 1))
    assert r["winners"] == [p["seat"] for p in r["players"] if p["won"]]


def test_json_results_show_the_values_the_table_shows():
    out = io.StringIO()
    assert run(["gnav", "--seed", "3", "--players", "5", "--json"], stdout=out) == 0
    r = json.loads(out.getvalue())
    assert "pot" in r["shown"] and all("lives" in p["shown"] for p in r["players"]) and len(r["players"]) == 5


def test_the_log_ends_with_the_result_and_numbers_options_as_the_screen_does(tmp_path):
    events = events_of(tmp_path, "hearts2", "--seed", "3")
    assert events[-1]["type"] == "result" and events[-1]["winners"] and events[-1]["players"][0]["seat"] == 1
    decisions = [e for e in events if e["type"] == "decision"]
    assert min(e["option"] for e in decisions) == 1


LEAK = """name: leak
players: 2
deck: {cards: [a, b, c, d, e, f], zone: stock}
zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}}
variables:
  secret: {type: "list[player]", initial: "[]", visibility: hidden, show: true}
flow:
  round:
    - deal: {from: stock, to: hand, count: 2, players: "[player(1), player(1), player(0)]"}
    - set: {secret: "[player(1), player(0)]"}
    - choose: [1, 2]
      by: player(0)
    - end_game
result: {winners: "[]"}
"""


def test_a_hidden_shared_list_is_no_players_score_and_a_seat_dealt_twice_gets_each_card_once(tmp_path):
    path = tmp_path / "leak.yaml"
    path.write_text(LEAK, encoding="utf-8")
    events = events_of(tmp_path, str(path), "--seed", "1", "--view", "1")
    assert not any(e["type"] == "score" for e in events)
    everything = events_of(tmp_path, str(path), "--seed", "1")
    dealt = [e for e in everything if e["type"] == "move" and e["to"]["zone"] == "hand"]
    cards = [c for e in dealt for c in e["cards"]]
    assert len(cards) == len(set(cards)) == 6
    assert [e["count"] for e in dealt] == [4, 2]


def test_a_round_cut_short_by_the_end_of_the_game_still_ends_in_the_account(tmp_path):
    events = events_of(tmp_path, "ninety_nine", "--seed", "3")
    rounds = [e["number"] for e in events if e["type"] == "round"]
    ends = [e["number"] for e in events if e["type"] == "round_end"]
    assert rounds == ends and events[-1]["type"] == "result"
