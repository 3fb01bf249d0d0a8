"""Who plays the seats no person takes: a person at the table, and --watch, get the planning
bot (ISMCTS within a short budget) by default; simulate and a game no one watches keep
random bots; --bot chooses; a resumed game does not plan its bots' past decisions again."""
from __future__ import annotations

import io
import json
import time

from conftest import Table, ruleset
from interpreter import load_program, new_game
from interpreter.cli import run
from interpreter.playing import records
from interpreter.playing.agents import TABLE_BOT, Decision, RandomAgent, bot_named
from interpreter.playing.ismcts import ISMCTSAgent


def call(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def recorded_bot(tmp_path, *argv):
    path = tmp_path / "game.json"
    call(ruleset("ninety_nine"), "--seed", "1", "--record", str(path), *argv)    # no input: the game stops at once
    return json.loads(path.read_text(encoding="utf-8"))["bot"]


def test_a_person_plays_against_the_planning_bot_by_default(tmp_path):
    assert TABLE_BOT["kind"] == "ismcts"
    assert recorded_bot(tmp_path, "--human", "1") == TABLE_BOT


def test_watch_shows_the_planning_bot_with_the_budget_asked(tmp_path):
    assert recorded_bot(tmp_path, "--watch", "--iterations", "3") == {"kind": "ismcts", "iterations": 3}


def test_a_game_no_one_watches_keeps_random_bots(tmp_path):
    assert recorded_bot(tmp_path) == {"kind": "random"}


def test_bot_chooses_the_opponents_of_a_person(tmp_path):
    assert recorded_bot(tmp_path, "--human", "1", "--bot", "random") == {"kind": "random"}
    assert recorded_bot(tmp_path, "--human", "1", "--bot", "mc", "--playouts", "3") == {"kind": "mc", "playouts": 3}
    assert recorded_bot(tmp_path, "--human", "1", "--think", "0.2") == {"kind": "ismcts", "seconds": 0.2}


def test_simulate_keeps_random_bots_by_default():
    code, out, _ = call("simulate", ruleset("ninety_nine"), "--games", "2", "--jobs", "1", "--progress", "off")
    assert code == 0 and "2 games between random bots" in out


def test_the_planning_bot_keeps_to_its_time_where_play_outs_are_long():
    program = load_program(ruleset("go_fish"))
    s = new_game(program, seed=1, players=4)
    bot = ISMCTSAgent(1, iterations=10 ** 6, seconds=0.05)
    start = time.perf_counter()
    bot.choose(Decision(program, s))
    assert time.perf_counter() - start < 1.0           # 0.05 s and one play-out cut at its end


def test_the_planning_bot_stops_at_its_iterations_before_its_time():
    t = Table("hearts2", seed=2)
    start = time.perf_counter()
    ISMCTSAgent(1, iterations=2, seconds=60).choose(Decision(t.program, t.state))
    assert time.perf_counter() - start < 5


def test_bot_named_builds_the_bot_a_record_names():
    assert isinstance(bot_named({"kind": "random"}, 1), RandomAgent)
    bot = bot_named(TABLE_BOT, 1)
    assert isinstance(bot, ISMCTSAgent) and (bot.iterations, bot.seconds) == (400, 0.5)
    assert bot_named({"kind": "ismcts"}, 1).iterations == 400          # never a search without an end


class Counting:
    """A bot that counts how often it is asked."""

    def __init__(self):
        self.asked = 0

    def choose(self, decision):
        self.asked += 1
        return 0


def test_resuming_catches_up_random_bots_and_does_not_plan_the_past_again(tmp_path):
    path = tmp_path / "game.json"
    code, _, _ = call(ruleset("ninety_nine"), "--seed", "3", "--human", "1", "--bot", "random", "--record", str(path),
                      stdin="#1\n" * 3)
    assert code == 2
    record = records.load(str(path))
    program, _ = records.program_of(record)
    bots = sum(1 for d in record["decisions"] if record["agents"][d["player"]] == "bot")
    assert bots > 0
    planner = Counting()
    records.bot_catch_up(record, program, [None, planner])
    assert planner.asked == 0
    random_bot, by_hand = RandomAgent(3), RandomAgent(3)
    records.bot_catch_up(record, program, [None, random_bot])
    for _ in range(bots):
        by_hand.rng.next()
    assert random_bot.rng.state == by_hand.rng.state                 # its generator is where it was
