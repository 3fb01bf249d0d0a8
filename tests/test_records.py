"""Records, replay, resume, event logs and JSON results, used as a person would: through the CLI."""
from __future__ import annotations

import io
import json

from conftest import ruleset
from interpreter.cli import run


def call(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_record_holds_ruleset_hash_options_decisions_and_result(tmp_path):
    rec = tmp_path / "g.json"
    code, _, _ = call(ruleset("ninety_nine"), "--seed", 4, "--record", rec)
    assert code == 0
    r = json.loads(rec.read_text(encoding="utf-8"))
    assert r["ruleset"]["name"] == "ninety_nine" and len(r["ruleset"]["sha256"]) == 64
    assert r["options"]["loss_threshold"] == "reach" and r["seed"] == 4 and r["players"] == 2
    assert r["agents"] == ["bot", "bot"]
    assert r["decisions"][0]["label"].startswith("play ")
    assert r["result"]["decisions"] == len(r["decisions"])


def test_replay_confirms_the_same_result(tmp_path):
    rec = tmp_path / "g.json"
    call(ruleset("hearts2"), "--seed", 9, "--record", rec)
    code, out, _ = call("replay", rec)
    assert code == 0 and "replay ok" in out and "the same result" in out


def test_replay_says_when_a_decision_is_no_longer_legal(tmp_path):
    rec = tmp_path / "g.json"
    call(ruleset("ninety_nine"), "--seed", 4, "--record", rec)
    r = json.loads(rec.read_text(encoding="utf-8"))
    r["decisions"][3]["label"] = "play 77♣ (total 0)"
    rec.write_text(json.dumps(r), encoding="utf-8")
    code, out, _ = call("replay", rec)
    assert code == 1 and "decision 4 ('play 77♣ (total 0)') is no longer legal" in out


def test_replay_says_when_the_result_differs(tmp_path):
    rec = tmp_path / "g.json"
    call(ruleset("ninety_nine"), "--seed", 4, "--record", rec)
    r = json.loads(rec.read_text(encoding="utf-8"))
    r["result"]["winners"] = [5]
    rec.write_text(json.dumps(r), encoding="utf-8")
    code, out, _ = call("replay", rec)
    assert code == 1 and "the result differs" in out


def test_replay_says_when_the_ruleset_changed(tmp_path):
    rules = tmp_path / "nn.yaml"
    rules.write_text(open(ruleset("ninety_nine"), encoding="utf-8").read(), encoding="utf-8")
    rec = tmp_path / "g.json"
    call(rules, "--seed", 4, "--record", rec)
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    code, out, _ = call("replay", rec)
    assert code == 1 and "ruleset's content differs" in out


def test_a_malformed_record_gets_positions_not_a_traceback(tmp_path):
    rec = tmp_path / "bad.json"
    rec.write_text('{"format": "card-interpreter-record/1", "ruleset": {"name": "x", "file": "y", "sha256": "z"},\n'
                   ' "options": {}, "players": "two", "seed": 1, "agents": [], "decisions": []}\n', encoding="utf-8")
    code, out, err = call("replay", rec)
    assert code == 1 and "Traceback" not in err
    assert f"{rec}:1:" in err and "sha256" in err
    assert f"{rec}:2:" in err and "'players' should be" in err


def test_a_game_with_a_person_is_recorded_automatically(tmp_path, monkeypatch):
    monkeypatch.setenv("CARD_INTERPRETER_RECORDS", str(tmp_path))
    code, out, _ = call(ruleset("ninety_nine"), "--seed", 5, "--human", 1, "--bot", "random", stdin="1\n" * 100)
    assert code == 0
    line = next(l for l in out.splitlines() if "this game is recorded in" in l)
    path = line.split("recorded in ", 1)[1]
    assert json.loads(open(path, encoding="utf-8").read())["agents"] == ["human", "bot"]


def test_an_interrupted_game_resumes_to_the_same_end(tmp_path):
    moves = "1\n" * 400
    full = tmp_path / "full.json"
    code, out_full, _ = call(ruleset("hearts2"), "--seed", 12, "--human", 1, "--bot", "random", "--record", full, stdin=moves)
    assert code == 0
    part = tmp_path / "part.json"
    code, out, _ = call(ruleset("hearts2"), "--seed", 12, "--human", 1, "--bot", "random", "--record", part, stdin="1\n" * 20)
    assert code == 2 and f"interpret resume {part}" in out
    assert 20 <= len(json.loads(part.read_text(encoding="utf-8"))["decisions"]) < 200
    code, out_resumed, _ = call("resume", part, stdin=moves)
    assert code == 0 and "resuming after" in out_resumed
    a = json.loads(full.read_text(encoding="utf-8"))
    b = json.loads(part.read_text(encoding="utf-8"))
    assert a["result"] == b["result"] and a["decisions"] == b["decisions"]
    assert out_full.strip().splitlines()[-1] == out_resumed.strip().splitlines()[-1]


def test_validate_checks_records_too(tmp_path):
    rec = tmp_path / "g.json"
    call(ruleset("ninety_nine"), "--seed", 4, "--record", rec)
    assert call("validate", rec)[0] == 0
    rec.write_text(rec.read_text(encoding="utf-8").replace('"seed": 4', '"seed": "four"'), encoding="utf-8")
    code, out, _ = call("validate", rec)
    assert code == 1 and "'seed' should be" in out


def _tampered(tmp_path, change):
    rec = tmp_path / "g.json"
    call(ruleset("gnav"), "--seed", 3, "--players", 4, "--record", rec)
    r = json.loads(rec.read_text(encoding="utf-8"))
    change(r)
    rec.write_text(json.dumps(r, ensure_ascii=False), encoding="utf-8")
    return rec, r


def test_replay_says_when_a_decision_is_recorded_for_the_wrong_seat(tmp_path):
    def wrong_seat(r):
        r["decisions"][5]["player"] = (r["decisions"][5]["player"] + 1) % 4
    rec, r = _tampered(tmp_path, wrong_seat)
    d = r["decisions"][5]
    code, out, _ = call("replay", rec)
    assert code == 1 and "replay ok" not in out, out
    assert (f"replay diverges: decision 6 ('{d['label']}'): it is Player {(d['player'] - 1) % 4 + 1}'s decision, "
            f"the record says Player {d['player'] + 1}") in out


def test_replay_says_when_a_decision_s_index_is_not_its_move(tmp_path):
    """resume plays the index: a record whose index names another move must not replay ok."""
    def wrong_index(r):
        r["decisions"][5]["index"] = 1 - r["decisions"][5]["index"]
    rec, r = _tampered(tmp_path, wrong_index)
    code, out, _ = call("replay", rec)
    assert code == 1 and "replay ok" not in out, out
    assert f"decision 6 ('{r['decisions'][5]['label']}'): the record's index {r['decisions'][5]['index']} names" in out
    rec, r = _tampered(tmp_path, lambda r: r["decisions"][0].update(index=7))
    code, out, _ = call("replay", rec)
    assert code == 1 and "the record's index 7 names no move (there are 2)" in out, out
