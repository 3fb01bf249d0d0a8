"""Rules that go wrong while a game runs end in a positioned rules error, never a traceback
or a hang: one test per fault, each with the smallest ruleset that shows it."""
from __future__ import annotations

import io
import time

import pytest

from interpreter.cli import run

HEAD = """name: faults
players: 2
deck:
  cards: [{id: a}, {id: b}, {id: c}, {id: d}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  x: 2
  words: "'ab'"
  many: {type: "list[player]", initial: "[]"}
"""
RESULT = """result:
  winners: "[]"
"""


def play(tmp_path, flow: str, *extra, head: str = HEAD, limit: float = 20) -> tuple[int, str, str]:
    """Play the ruleset head + flow between bots; (exit code, stdout, stderr)."""
    path = tmp_path / "faults.yaml"
    path.write_text(head + flow + RESULT, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    code = run([str(path), "--seed", "1", *extra], stdin=io.StringIO(""), stdout=out, stderr=err)
    assert time.perf_counter() - start < limit, "the fault took too long to be noticed"
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def validate(tmp_path, flow: str) -> tuple[int, str]:
    path = tmp_path / "faults.yaml"
    path.write_text(HEAD + flow + RESULT, encoding="utf-8")
    out = io.StringIO()
    code = run(["validate", str(path)], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


def line_of(text: str, needle: str) -> int:
    return (HEAD + text).splitlines().index(needle) + 1


def test_a_number_that_grows_without_end_stops_at_the_limit(tmp_path):
    flow = "flow:\n  round:\n    - while: \"true\"\n      do:\n        - set: {x: \"x * x\"}\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "a number reached the limit" in err
    line = line_of(flow, '        - set: {x: "x * x"}')
    assert f"faults.yaml:{line}:" in err


def test_a_text_that_grows_without_end_stops_at_the_limit(tmp_path):
    flow = "flow:\n  round:\n    - while: \"true\"\n      do:\n        - set: {words: \"words + words\"}\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "a text grew longer than" in err


def test_a_list_that_grows_without_end_stops_at_the_limit(tmp_path):
    flow = "flow:\n  round:\n    - while: \"true\"\n      do:\n        - set: {many: \"many + many + players\"}\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "a list grew longer than" in err


def test_the_step_limit_cannot_be_set_beyond_its_maximum(tmp_path):
    code, out = validate(tmp_path, "flow:\n  max_steps: 100000000\n  round: [end_game]\n")
    assert code == 1 and "max_steps" in out


def test_an_endless_loop_stops_at_the_step_limit_with_a_position(tmp_path):
    flow = "flow:\n  max_steps: 1000\n  round:\n    - while: \"true\"\n      do:\n        - add: {x: 0}\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "more than 1000 steps" in err and "faults.yaml:" in err and ":0:" not in err


def test_the_step_limit_reached_across_decisions_has_a_position(tmp_path):
    flow = ("flow:\n  max_steps: 50\n  round:\n    - turns:\n        do:\n"
            "          - choose: [yes, no]\n            as: answer\n")
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "more than 50 steps" in err
    assert err.startswith("interpret: ") and "faults.yaml:" in err and ":0:" not in err


def test_a_fault_in_the_second_of_two_effects_is_reported_at_its_own_line(tmp_path):
    flow = "flow:\n  round:\n    - set: {x: 1}\n    - set: {x: \"x / 0\"}\n    - end_game\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "division by zero" in err
    line = line_of(flow, '    - set: {x: "x / 0"}')
    assert f"faults.yaml:{line}:" in err


def test_eliminating_every_player_before_turns_ends_the_turns(tmp_path):
    flow = ("flow:\n  round:\n    - for_each: p\n      in: players\n      do: [eliminate: p]\n"
            "    - turns:\n        do:\n          - choose: [yes, no]\n    - end_game\n")
    code, out, err = play(tmp_path, flow)
    assert code == 0, err
    assert "a draw" in out


def test_a_choice_between_numbers_shows_each_number(tmp_path):
    flow = ("flow:\n  round:\n    - turns:\n        count: 1\n        do:\n"
            "          - choose: [0, 1, 2]\n            as: n\n          - log: \"{current} picks {n}\"\n"
            "    - end_game\n")
    code, out, err = play(tmp_path, flow, "--human", "1", "--bot", "random")
    assert "1. 0" in out and "2. 1" in out and "3. 2" in out


def test_a_choice_between_texts_and_numbers_mixed_is_refused(tmp_path):
    code, out = validate(tmp_path, "flow:\n  round:\n    - choose: [0, yes]\n      by: players[0]\n    - end_game\n")
    assert code == 1 and "all texts or all numbers" in out


def test_a_choice_outside_turns_without_by_says_who_is_missing(tmp_path):
    flow = "flow:\n  round:\n    - choose: stock\n      as: c\n    - end_game\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "outside 'turns' a choice needs 'by'" in err
    assert f"faults.yaml:{line_of(flow, '    - choose: stock')}:" in err


@pytest.mark.parametrize("expr", ["x / 0.0", "x // 0", "x % 0"])
def test_a_number_out_of_range_is_a_rules_error(tmp_path, expr):
    code, _, err = play(tmp_path, f"flow:\n  round:\n    - set: {{x: \"{expr}\"}}\n    - end_game\n")
    assert code == 1 and "rules error" in err


INFINITY = "(x / 3)" + " * 100000000000000000" * 20      # beyond the largest float: infinity
COUNTS = {INFINITY: "a number or list grew too large",
          f"({INFINITY}) - ({INFINITY})": "this value is not a number (0/0?)"}


@pytest.mark.parametrize("count", list(COUNTS))
def test_a_count_that_is_infinite_or_not_a_number_is_a_rules_error(tmp_path, count):
    flow = f"flow:\n  round:\n    - deal: {{from: stock, to: hand, count: \"{count}\"}}\n    - end_game\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and f"rules error while running this step: {COUNTS[count]}" in err
    assert f"faults.yaml:{line_of(flow, flow.splitlines()[2])}:" in err


BIG_DECK = HEAD.replace("  cards: [{id: a}, {id: b}, {id: c}, {id: d}]",
                        "  product:\n    rank: [" + ", ".join(f"{{id: r{i}}}" for i in range(50)) + "]\n"
                        "    suit: [" + ", ".join(f"{{id: s{i}}}" for i in range(100)) + "]\n"
                        "  id: \"{rank}{suit}\"")


@pytest.mark.parametrize("body", ["[shuffle: stock]", "[sort: {zone: stock, by: card.id}]",
                                  "[{move: {from: stock, to: hand_of}}, {move: {from: hand_of, to: stock}}]"])
def test_an_effect_repeated_without_end_on_a_large_deck_stops_at_the_work_limit(tmp_path, body):
    body = body.replace("hand_of", "\"players[0].hand\"")
    flow = f"flow:\n  round:\n    - while: \"true\"\n      do: {body}\n"
    code, _, err = play(tmp_path, flow, head=BIG_DECK)
    assert code == 1 and "units of work between two decisions" in err


def test_an_endless_log_stops_being_kept_but_the_game_plays_as_without_an_account(tmp_path):
    flow = "flow:\n  max_steps: 400000\n  round:\n    - while: \"true\"\n      do: [log: \"{current} waits\"]\n"
    code, out, err = play(tmp_path, flow, "--quiet")
    assert code == 1 and "more than 400000 steps" in err
    code, out, err = play(tmp_path, flow)
    assert code == 1 and "more than 400000 steps" in err
    assert "(the account stops here: it holds 100,000 entries" in out
    assert out.count("waits") == 100_000 - 1      # the first entry says the round began


def test_a_log_text_longer_than_its_limit_is_cut(tmp_path):
    flow = "flow:\n  round:\n    - set: {words: \"words + words + words + words + words + words\"}\n" \
           "    - repeat:\n        - set: {words: \"words + words\"}\n        - add: {x: 1}\n      until: \"x > 9\"\n" \
           "    - log: \"{words}\"\n    - end_game\n"
    code, out, err = play(tmp_path, flow)
    assert code == 0, err
    line = [x for x in out.splitlines() if x.startswith("'ab''ab'")][0]
    assert len(line) == 1000 and line.endswith("…")


POWERS = ("functions:\n  p10: {params: [x], expr: \"x*x*x*x*x*x*x*x*x*x\"}\n"
          "  p1000: {params: [x], expr: \"p10(p10(p10(x)))\"}\n")


def test_a_constant_beyond_the_number_limit_is_refused_where_it_is_written(tmp_path):
    code, out = validate(tmp_path, POWERS + "flow:\n  round:\n    - log: \"{text(p1000(999999999))}\"\n"
                                            "    - end_game\n")
    assert code == 1 and "this computes a number beyond the limit" in out and "Traceback" not in out


def test_a_number_too_large_to_show_is_a_rules_error(tmp_path):
    flow = POWERS + "flow:\n  round:\n    - set: {x: 999999999}\n    - if: \"text(p1000(x)) == ''\"\n    - end_game\n"
    code, _, err = play(tmp_path, flow)
    assert code == 1 and "cannot be shown" in err and "sys.set_int_max_str_digits" not in err


@pytest.mark.parametrize("condition", ["count(stock, c => c in stock) >= 0",
                                       "count(stock, c => text(stock) == '') >= 0",
                                       "count(stock, c => filter(stock, d => true) == stock) >= 0"])
def test_membership_text_and_comparison_of_large_lists_count_as_work(tmp_path, condition):
    flow = f"flow:\n  round:\n    - while: \"{condition}\"\n      do: [add: {{x: 0}}]\n"
    code, _, err = play(tmp_path, flow, head=BIG_DECK, limit=30)
    assert code == 1 and "units of work between two decisions" in err


def test_a_negative_count_does_not_give_back_work(tmp_path):
    flow = ("flow:\n  round:\n    - deal: {from: stock, to: hand, count: -100000000000000000}\n"
            "    - while: \"count(stock, c => count(stock, d => true) > 0) >= 0\"\n      do: [add: {x: 0}]\n")
    code, _, err = play(tmp_path, flow, head=BIG_DECK, limit=30)
    assert code == 1 and "units of work" in err


def test_a_text_the_rules_cannot_compute_is_shown_as_such_and_the_game_goes_on(tmp_path):
    flow = "flow:\n  round:\n    - set: {x: 0}\n    - log: \"{current} scores {10 // x}\"\n    - end_game\n"
    code, out, err = play(tmp_path, flow)
    assert code == 0 and "(a text of the rules cannot be shown: division by zero)" in out


def test_a_label_the_rules_cannot_compute_still_names_the_option(tmp_path):
    flow = ("flow:\n  round:\n    - set: {x: 0}\n    - turns:\n        count: 1\n        do:\n"
            "          - choose: [1, 2]\n            as: n\n            label: \"take {n // x}\"\n    - end_game\n")
    code, out, err = play(tmp_path, flow, "--human", "1", "--bot", "random")
    assert "1. option 1 (its label cannot be shown: division by zero)" in out
    code, out, err = play(tmp_path, flow)
    assert code == 0, err


def test_random_in_a_text_is_refused_since_the_game_would_depend_on_its_account(tmp_path):
    code, out = validate(tmp_path, "flow:\n  round:\n    - log: \"{random(players)} begins\"\n    - end_game\n")
    assert code == 1 and "random() cannot be used in a text" in out
    code, out = validate(tmp_path, "flow:\n  round:\n    - log: {text: hello, to: \"random(players)\"}\n"
                                   "    - end_game\n")
    assert code == 1 and "random() cannot be used in a text" in out


@pytest.mark.parametrize("game", ["hearts2", "ninety_nine", "gnav", "gnav2"])
def test_a_game_plays_the_same_with_or_without_its_account(game):
    import json
    import pathlib
    path = str(pathlib.Path(__file__).parent.parent / "rulesets" / f"{game}.yaml")
    for seed in range(3):
        out = io.StringIO()
        assert run([path, "--seed", str(seed), "--json"], stdout=out) == 0
        played = json.loads(out.getvalue())
        out = io.StringIO()
        assert run(["simulate", path, "--games", "1", "--seed", str(seed), "--json"], stdout=out) == 0
        simulated = json.loads(out.getvalue())
        assert played["decisions"] == simulated["decisions"]["value"]
        assert [1.0 if p + 1 in played["winners"] else 0.0 for p in range(len(simulated["win_share"]))] == \
            [1.0 if w["value"] > 0 else 0.0 for w in simulated["win_share"]]


def test_an_initial_value_the_rules_cannot_compute_names_the_variable(tmp_path):
    head = HEAD.replace("  x: 2\n", "  x: 2\n  ratio: {type: number, initial: \"10 / count(stock) - 10 / 4\"}\n"
                                     "  share: {type: number, initial: \"10 / (count(stock) - 4)\"}\n")
    code, _, err = play(tmp_path, "flow:\n  round: [set: {x: 1}]\n", "--bot", "random", head=head)
    assert code == 1 and "the initial value of 'share' cannot be computed: division by zero" in err
