"""The ISMCTS bot (playing/ismcts.py): it plans on imagined deals, as the mc bot does, and
plays at the terminal, in simulations and in records."""
from __future__ import annotations

import json

from conftest import ruleset
from test_cli import call

from interpreter import load_program
from interpreter.playing.agents import Decision, RandomAgent
from interpreter.playing.ismcts import ISMCTSAgent
from interpreter.playing.table import play


def test_the_ismcts_bot_avoids_an_obviously_losing_card():
    from test_ninety_nine_rules import nn
    t = nn(p1="5♣ 2♣ 3♣ 4♣ 6♣")
    t.state.vars["total"] = 94
    t.refresh()
    labels = t.legal()
    choice = ISMCTSAgent(seed=1, iterations=60).choose(Decision(t.program, t.state))
    assert labels[choice] != "play 5♣ (total 99)"       # 5 reaches 99 and loses at once


def test_with_a_standing_the_ismcts_bot_wins_hearts2_against_a_random_bot():
    program = load_program(ruleset("hearts2"), {"target_score": "50"})
    wins = 0
    for seed in range(3):
        s = play(program, [ISMCTSAgent(seed, iterations=40), RandomAgent(seed)], seed=seed, log=False)
        wins += s.result["winners"] == [0]
    assert wins >= 2


def test_a_forced_move_is_played_without_a_search():
    class One:
        count = 1
    assert ISMCTSAgent(iterations=10 ** 9).choose(One()) == 0


def test_the_ismcts_bot_plans_only_on_imagined_deals():
    """It reads the game only through Decision.imagine: a decision whose real state it may
    not touch still gets an answer."""
    from interpreter.runtime.engine import new_game
    program = load_program(ruleset("gnav2"))

    class Blind:
        def __init__(self, real):
            self._real = real
            self.count = len(real.pending[1])
            self.program = program

        def imagine(self, rng):
            return Decision(program, self._real).imagine(rng)
    real = new_game(program, seed=4)
    choice = ISMCTSAgent(seed=3, iterations=30).choose(Blind(real))
    assert 0 <= choice < len(real.pending[1])


def test_ismcts_bots_play_at_the_terminal_and_their_record_replays(tmp_path):
    rec = tmp_path / "ismcts.json"
    code, out, _ = call(ruleset("ninety_nine"), "--seed", "2", "--bot", "ismcts", "--iterations", "5",
                        "--record", str(rec))
    assert code == 0 and "Result:" in out
    assert json.loads(rec.read_text(encoding="utf-8"))["bot"] == {"kind": "ismcts", "iterations": 5}
    assert call("replay", str(rec))[0] == 0


def test_simulate_with_an_ismcts_seat_against_mc_bots():
    code, out, _ = call("simulate", ruleset("gnav2"), "--games", "2", "--ismcts-seats", "1", "--iterations", "5",
                        "--bot", "mc", "--playouts", "2")
    assert code == 0 and "2 games between mc bots (2 play-outs an option), the ismcts bot in seat 1" in out
    code, out, _ = call("simulate", ruleset("gnav2"), "--games", "2", "--ismcts-seats", "2", "--iterations", "5",
                        "--json")
    report = json.loads(out)
    assert report["ismcts_seats"] == [2] and report["iterations"] == 5 and report["mc_seats"] == []


def test_a_seat_given_two_bots_or_too_many_iterations_is_a_usage_error():
    code, _, err = call("simulate", ruleset("gnav2"), "--games", "2", "--ismcts-seats", "1", "--mc-seats", "1")
    assert code == 2 and "seat 1 is named by both --mc-seats and --ismcts-seats" in err
    code, _, err = call(ruleset("gnav2"), "--bot", "ismcts", "--iterations", "0")
    assert code == 2 and "--iterations must be 1 to 100000" in err


def test_the_ismcts_bot_may_think_for_a_time_instead(tmp_path):
    rec = tmp_path / "think.json"
    code, out, _ = call(ruleset("ninety_nine"), "--seed", "2", "--bot", "ismcts", "--think", "0.01",
                        "--record", str(rec))
    assert code == 0 and "Result:" in out
    assert json.loads(rec.read_text(encoding="utf-8"))["bot"]["seconds"] == 0.01
    code, _, err = call(ruleset("ninety_nine"), "--bot", "ismcts", "--think", "0")
    assert code == 2 and "--think must be more than 0" in err
