"""Scenarios: every shipped example passes; failures and bad scenarios are reported clearly."""
from __future__ import annotations

import io
import pathlib

import pytest

from conftest import messages
from interpreter.cli import run

EXAMPLES = sorted((pathlib.Path(__file__).parent.parent / "examples" / "scenarios").glob("*.yaml"))
GAMES = tuple(p.stem for p in sorted((pathlib.Path(__file__).parent.parent / "rulesets").glob("*.yaml")))


def call(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def test_there_are_example_scenarios_for_every_game():
    for game in GAMES:
        assert any(p.name.startswith(game + "_") for p in EXAMPLES), game


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_scenario_passes(path):
    code, out = call("scenario", path)
    assert code == 0, out
    assert out.startswith("PASS")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_scenario_validates(path):
    code, out = call("validate", path)
    assert code == 0 and out.strip().endswith(": ok")


def write(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(text.replace("RULESETS", str(pathlib.Path(__file__).parent.parent / "rulesets")), encoding="utf-8")
    return p


BASE = """name: test
ruleset: RULESETS/ninety_nine.yaml
options: {first_player: seat_1}
zones:
  hand: [["5♣", "3♣", "2♣", "4♣", "6♣"], ["2♦", "3♦", "4♦", "5♦", "6♦"]]
set:
  total: 94
decisions: ["play 3♣ (total 97)"]
expect:
  - after: 1
    that: ["total == 97"]
"""


def test_a_passing_scenario(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE))
    assert code == 0 and "PASS" in out and "(1/1 expectations)" in out


def test_a_failing_expectation_is_reported_with_its_position_and_the_account(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE.replace("total == 97", "total == 98")))
    assert code == 1 and "FAIL" in out
    assert "FAIL " + str(tmp_path / "s.yaml") + ":11:12: after 1 decision(s): total == 98" in out
    assert "account of the game:" in out and "Player 1 plays 3♣" in out


def test_exact_legal_moves_are_checked(tmp_path):
    text = BASE.replace("""  - after: 1
    that: ["total == 97"]""", """  - after: 0
    legal: ["play 5♣ (total 99)", "play 3♣ (total 97)", "play 2♣ (total 96)", "play 4♣ (total 98)"]""")
    code, out = call("scenario", write(tmp_path, text))
    assert code == 1 and "legal moves are" in out and "play 6♣ (total 100)" in out


def test_a_card_the_ruleset_does_not_have(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE.replace('"5♣", "3♣"', '"5♣", "Q♣"')))
    assert code == 1 and "s.yaml:5:17:" in out and "has no card 'Q♣'" in out and "Traceback" not in out


def test_a_decision_that_is_not_legal(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE.replace("play 3♣ (total 97)", "play 9♣ (total 94)")))
    assert code == 1 and "s.yaml:8:" in out and "decision 1 'play 9♣ (total 94)' is not legal" in out


def test_an_unknown_zone_or_variable(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE.replace("  hand:", "  hands:")))
    assert code == 1 and "unknown zone 'hands' (did you mean 'hand'?)" in out
    code, out = call("scenario", write(tmp_path, BASE.replace("  total: 94", "  totl: 94")))
    assert code == 1 and "unknown variable 'totl' (did you mean 'total'?)" in out


def test_a_bad_expectation_expression(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE.replace("total == 97", "totl == 97")))
    assert code == 1 and "s.yaml:11:13:" in out and "unknown name 'totl'" in out


def test_schema_errors_in_a_scenario(tmp_path):
    code, out = call("validate", write(tmp_path, BASE.replace("decisions:", "decisons:")))
    assert code == 1 and "unknown key 'decisons'" in out and "did you mean 'decisions'" in out


@pytest.mark.parametrize("after", [2, 3, -1, 999999999999])
@pytest.mark.parametrize("command", ["scenario", "validate"])
def test_an_expectation_after_a_decision_the_scenario_never_makes_is_a_problem(tmp_path, command, after):
    """Such an expectation was skipped: the scenario passed without checking it."""
    code, out = call(command, write(tmp_path, BASE.replace("after: 1", f"after: {after}")))
    assert code == 1 and "PASS" not in out and "Traceback" not in out, out
    assert messages(out).strip() == (f"{tmp_path / 's.yaml'}:10:12: 'after: {after}' is never reached: the scenario makes "
                           f"1 decision, so 'after' is 0 to 1, or 'end'")


def test_after_may_be_every_decision_from_0_to_the_last_and_end(tmp_path):
    text = BASE.replace("""  - after: 1
    that: ["total == 97"]""", """  - after: 0
    that: ["total == 94"]
  - after: 1
    that: ["total == 97"]
  - after: end
    that: ["total == 97"]""")
    code, out = call("scenario", write(tmp_path, text))
    assert code == 0 and "(3/3 expectations)" in out, out
    assert call("validate", write(tmp_path, text))[0] == 0


def test_every_unreachable_after_is_named_at_once_with_a_bad_expression(tmp_path):
    text = BASE.replace("""  - after: 1
    that: ["total == 97"]""", """  - after: 5
  - after: 1
    that: ["totl == 97"]
  - after: -2""")
    code, out = call("validate", write(tmp_path, text))
    lines = messages(out).strip().splitlines()
    assert code == 1 and len(lines) == 3, out
    assert "s.yaml:10:12: 'after: 5' is never reached" in lines[0] and "unknown name 'totl'" in lines[1]
    assert "s.yaml:13:12: 'after: -2' is never reached" in lines[2]


BOOM = """name: boom
players: 2
deck:
  cards: [{id: a}, {id: b}, {id: c}, {id: d}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  x: 2
flow:
  round:
    - deal: {from: stock, to: hand, count: 2}
    - turns:
        until: "x > 3"
        do:
          - choose: current.hand
            as: card
            label: "play {card}"
          - while: "true"
            do:
              - set: {x: "x * x"}
result:
  winners: "[]"
"""


def test_expectations_the_rules_never_let_the_scenario_reach_fail_it(tmp_path):
    """The rules break down at decision 1: what was to be checked after it fails, line by line,
    and the next scenario still runs."""
    write(tmp_path, BOOM, "boom.yaml")
    s = write(tmp_path, """name: the rules break
ruleset: boom.yaml
zones: {hand: [[a, b], [c, d]]}
decisions: [play a]
expect:
  - after: 0
    that: ["x == 2"]
  - after: 1
    that: ["x == 4"]
  - over: true
""")
    assert call("validate", s)[0] == 0
    code, out = call("scenario", s, EXAMPLES[0])
    assert code == 1 and "Traceback" not in out, out
    assert f"FAIL {s}: the rules break (1/4 expectations)" in out
    assert f"  ok   {s}:7:12: after 0 decision(s): x == 2" in out
    assert f"  FAIL {s}:4:13: the rules cannot go on: " in out and "a number reached the limit" in out
    assert f"  FAIL {s}:8:12: after 1 decision(s): never checked: the scenario stopped before it got there" in out
    assert f"  FAIL {s}:10:5: at the end: never checked: the scenario stopped before it got there" in out
    assert f"PASS {EXAMPLES[0]}" in out


def test_the_result_is_read_once_the_game_is_over(tmp_path):
    text = BASE.replace("play 3♣ (total 97)", "play 5♣ (total 99)").replace("""  - after: 1
    that: ["total == 97"]""", """  - after: 0
    that: ["winners == []"]
    winners: [2]
  - after: end
    that: ["winners == [players[1]]", "scores == []"]
    winners: [1]""")
    code, out = call("scenario", write(tmp_path, text))
    assert code == 1
    assert "after 0 decision(s): winners == [] (error: 'winners' is known only once the game is over)" in out
    assert "after 0 decision(s): the game is not over: no one has won yet" in out
    assert "ok   " + str(tmp_path / "s.yaml") + ":14:12: at the end: winners == [players[1]]" in out
    assert "at the end: the winners are Player 2, expected Player 1" in out


def test_the_account_may_be_checked_for_what_it_does_not_say_and_for_order(tmp_path):
    text = BASE.replace("""    that: ["total == 97"]""", """    not_log: ["Player 2 plays", "Player 1 plays 3♣"]
    log_order: ["Player 1 plays 3♣", "the total is 97"]
  - after: 1
    log_order: ["the total is 97", "Player 1 plays 3♣"]""")
    code, out = call("scenario", write(tmp_path, text))
    assert code == 1
    assert "after 1 decision(s): the account does not say 'Player 2 plays'" in out
    assert "FAIL " + str(tmp_path / "s.yaml") + ":11:33: after 1 decision(s): the account says 'Player 1 plays 3♣'" in out
    assert "after 1 decision(s): the account says, in this order: 'Player 1 plays 3♣', 'the total is 97'" in out
    assert "after 1 decision(s): the account says 'Player 1 plays 3♣' only before 'the total is 97'" in out


def test_a_failure_shows_the_position_the_scenario_set_not_the_deal_it_replaced(tmp_path):
    code, out = call("scenario", write(tmp_path, BASE.replace("total == 97", "total == 98")))
    account = out.split("account of the game:")[1]
    assert "you hold" not in account                      # the random deal's private lines
    assert "the position the scenario set:" in account
    assert "hand: Player 1: 5♣ 3♣ 2♣ 4♣ 6♣ | Player 2: 2♦ 3♦ 4♦ 5♦ 6♦" in account and "total: 94" in account
    assert account.index("then:") < account.index("Player 1 plays 3♣")


def test_the_journal_is_read_as_lines(tmp_path):
    text = (pathlib.Path(__file__).parent.parent / "examples" / "scenarios" / "gnav_horse_redirects.yaml").read_text(
        encoding="utf-8").replace("../../rulesets", "RULESETS").replace(
        '["swap piece of Player 2 and piece of Player 4"]', '["swap piece of Player 2 and piece of Player 3"]')
    code, out = call("scenario", write(tmp_path, text))
    assert code == 1
    assert ("the journal does not note 'swap piece of Player 2 and piece of Player 3'; "
            "it holds: swap piece of Player 2 and piece of Player 4") in out


def test_giving_the_top_of_a_zone_keeps_the_rest_and_every_zone_keeps_its_size(tmp_path):
    """The 3♣ is dealt to Player 1: put on top of the stock, it swaps places with the card
    that was on top there, and the stock's other cards stay as they were."""
    from interpreter import load_program, new_game
    program = load_program(str(pathlib.Path(__file__).parent.parent / "rulesets" / "ninety_nine.yaml"),
                           {"first_player": "seat_1"})
    dealt = new_game(program, seed=0)
    stock = [program.deck.ids[c] for c in dealt.zones["stock"]]
    held = program.deck.ids[dealt.zones["hand"][0][0]]
    text = BASE.replace("""zones:
  hand: [["5♣", "3♣", "2♣", "4♣", "6♣"], ["2♦", "3♦", "4♦", "5♦", "6♦"]]
""", f"""seed: 0
zones:
  stock: {{top: ["{held}"], bottom: ["{stock[-1]}"]}}
""").replace("""decisions: ["play 3♣ (total 97)"]""", "").replace("""  - after: 1
    that: ["total == 97"]""", f"""  - after: 0
    that: ["count(stock) == {len(stock)}", "count(players[0].hand) == 5",
           "top(stock) != null and top(stock).id == '{held}'",
           "count(stock) > 0 and stock[0] != null and stock[0].id == '{stock[-1]}'",
           "any(players[0].hand, c => c.id == '{stock[-1]}') == false"]""")
    code, out = call("scenario", write(tmp_path, text))
    assert code == 0, out


CARDS = """players: 2
deck:
  cards: [{id: a, value: 1}, {id: b, value: 2}, {id: c, value: 3}, {id: d, value: 4}, {id: e, value: 5}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  pile: {visibility: public}
"""

STEPS = "name: steps\n" + CARDS + """variables:
  high: 0
  start_score: 10
  scored: 0
  bonus: 0
events:
  scored_event: {}
triggers:
  - on: scored_event
    do: [add: {bonus: 1}]
flow:
  setup:
    - set: {scored: start_score}
  round:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 2}
      id: deal
    - set: {high: "max(players, p => max(p.hand, c => c.value))"}
      id: high
    - turns:
        count: 2
        do:
          - if: "any(current.hand, c => c.value == high)"
            then:
              - choose: "filter(current.hand, c => c.value == high)"
                as: card
                label: "play {card}"
              - move: {card: card, from: current.hand, to: pile}
              - emit: scored_event
            else:
              - log: "{current} cannot play"
  until: "true"
result:
  winners: "[]"
"""


def steps_scenario(tmp_path, body):
    write(tmp_path, STEPS, "steps.yaml")
    return write(tmp_path, "name: points\nruleset: steps.yaml\n" + body)


def test_a_position_placed_at_turn_start_is_what_the_rules_decide_from(tmp_path):
    """Who may play is worked out before the turn (the step 'high'): placed at the start of
    the turn, the position is there before the rules decide; without 'at' it comes too late."""
    body = """at: {before: high}
zones: {hand: [[a, e], [b, c]]}
decisions: [play e]
expect:
  - after: 0
    that: ["high == 5"]
    legal: [play e]
  - after: 1
    log: ["Player 2 cannot play"]
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 0, out
    code, out = call("scenario", steps_scenario(tmp_path, body.replace("at: {before: high}\n", "")))
    assert code == 1 and "Traceback" not in out


def test_a_position_at_the_start_of_the_game_is_set_before_the_setup(tmp_path):
    body = """at: game_start
set: {start_score: 3}
expect:
  - after: 0
    that: ["scored == 3"]
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 0, out


def test_a_position_at_round_start_is_dealt_over_by_the_round(tmp_path):
    """round_start is before anything of the round: its shuffle and deal run after the position."""
    body = """at: round_start
zones: {stock: [a, b, c, d, e]}
set: {high: 99}
expect:
  - after: 0
    that: ["high < 99", "count(stock) == 1"]
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 0, out


def test_expectations_are_checked_where_the_flow_passes(tmp_path):
    body = """at: {before: high}
zones: {hand: [[a, e], [b, c]]}
decisions: [play e]
expect:
  - at: {after: deal}
    that: ["count(stock) == 1"]
  - at: turn_start
    that: ["current == players[0]", "high == 5"]
  - at: scored_event
    that: ["bonus == 1", "count(pile) == 1"]
  - at: turn_end
    nth: 2
    that: ["current == players[1]"]
    log: ["Player 2 cannot play"]
  - at: round_end
    that: ["count(pile) == 1"]
  - at: round_start
    that: ["high == 0"]
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 0, out
    s = tmp_path / "s.yaml"
    assert f"ok   {s}:8:12: after step 'deal': count(stock) == 1" in out
    assert f"ok   {s}:15:12: at turn_end (the 2nd time): current == players[1]" in out


def test_a_point_the_flow_never_comes_to_again_is_never_checked(tmp_path):
    body = """expect:
  - at: turn_end
    nth: 3
    that: ["true"]
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 1
    assert "at turn_end (the 3rd time): never checked: the scenario stopped (its decisions ran out; 'finish' plays on) before it got there" in out


def test_points_the_rules_do_not_have_are_problems_with_a_suggestion(tmp_path):
    body = """at: {before: hihg}
expect:
  - at: turn_ends
    that: ["true"]
  - at: {after: deal}
    after: 1
  - nth: 2
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 1 and "Traceback" not in out
    assert "no step has the id 'hihg' in these rules (an overlay may have replaced it, or the options in force leave it out) (did you mean 'high'?)" in out
    assert "unknown point 'turn_ends' (did you mean 'turn_end'?)" in out
    assert "checked 'after' a number of decisions or 'at' a point of the flow, not both" in out
    assert "'nth' counts the times the flow comes to the point of 'at'; give 'at'" in out
    assert call("validate", tmp_path / "s.yaml")[0] == 1


def test_a_position_the_flow_never_comes_to_fails_the_scenario(tmp_path):
    """An event the rules raise only on a card no one holds: the position is never placed;
    an event no trigger answers is no point to stop at."""
    text = STEPS.replace("  scored_event: {}", "  scored_event: {}\n  never: {}\n  unanswered: {}").replace(
        "          - if: \"any(", "          - if: \"high > 100\"\n            then: [emit: never]\n"
                                 "          - emit: unanswered\n          - if: \"any(").replace(
        "triggers:\n", "triggers:\n  - on: never\n    do: [add: {bonus: 1}]\n")
    write(tmp_path, text, "steps.yaml")
    s = write(tmp_path, "name: never\nruleset: steps.yaml\nat: never\nset: {bonus: 5}\nfinish: first\n"
                        "expect:\n  - over: true\n")
    code, out = call("scenario", s)
    assert code == 1
    assert f"FAIL {s}:3:5: the position was never set: the game ended before the rules came to never" in out
    s.write_text(s.read_text(encoding="utf-8").replace("at: never", "at: unanswered"), encoding="utf-8")
    code, out = call("scenario", s)
    assert code == 1 and "the rules never come to 'unanswered' (an event is a point where a trigger answers it)" in out


def test_a_problem_of_a_position_placed_later_is_found_before_the_game(tmp_path):
    body = """at: turn_start
zones: {hand: [[a, z], [b, c]]}
set: {hihg: 1}
expect:
  - over: true
"""
    code, out = call("validate", steps_scenario(tmp_path, body))
    assert code == 1
    assert "no card 'z'" in out and "unknown variable 'hihg' (did you mean 'high'?)" in out


def test_a_step_id_an_overlay_gives_is_a_point_too(tmp_path):
    write(tmp_path, STEPS, "steps.yaml")
    write(tmp_path, """extends: steps.yaml
steps:
  - after: high
    insert:
      - log: "the high card is {high}"
        id: said
""", "house.yaml")
    s = write(tmp_path, """name: overlay point
ruleset: house.yaml
expect:
  - at: {after: said}
    log: ["the high card is"]
""")
    code, out = call("scenario", s)
    assert code == 0, out


def test_a_position_the_rules_cannot_go_on_from_points_to_at(tmp_path):
    """Placed at the first decision, a hand with no card of the highest value leaves the
    pending choice with nothing to choose: the message says to place the position earlier."""
    body = """zones: {hand: [[a, b], [c, d]]}
set: {high: 5}
expect:
  - over: true
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 1 and "Traceback" not in out
    assert "the rules cannot go on from this position: " in out
    assert "or place the position earlier with 'at' (turn_start, round_start, before: STEP_ID)" in out


def test_an_event_a_request_raises_is_a_point_once_its_triggers_answer(tmp_path):
    """gnav's 'ask' is raised by a request: the first is answered by the Horse's block, the
    second (redirected) once its triggers have answered, before the exchange is made."""
    s = write(tmp_path, """name: ask
ruleset: RULESETS/gnav.yaml
options: {first_dealer: seat_1}
players: 4
zones: {hand: [[V], ["0"], [horse], [VIII]]}
decisions: [ask Player 3]
expect:
  - at: ask
    that: ["current == players[1]", "top(players[1].hand).id == '0'"]
    log: ["Player 3 blocks with the Horse"]
    not_log: ["Player 2 and Player 4 exchange pieces"]
  - at: ask
    nth: 2
    log: ["Player 2 asks Player 4 instead"]
  - after: 1
    log: ["Player 2 and Player 4 exchange pieces"]
""")
    code, out = call("scenario", s)
    assert code == 0, out


def test_a_failed_comparison_says_what_its_sides_were_and_a_null_fails_it(tmp_path):
    """An expectation may read what may be null: a null fails it, with the reason."""
    s = write(tmp_path, BASE.replace('that: ["total == 97"]', """that: ["total == 98", "top(pile).id == 'AC'",
           "count(players[0].hand) == 5", "first(players[0].hand, c => c.value > 9).id == '10C'"]"""))
    code, out = call("scenario", s)
    assert code == 1 and "Traceback" not in out
    assert "after 1 decision(s): total == 98 (total is 97)" in out
    assert "top(pile).id == 'AC' (top(pile).id is '3C')" in out
    assert "count(players[0].hand) == 5 (" not in out and "count(players[0].hand) == 5" in out    # it holds
    assert "first(players[0].hand, c => c.value > 9).id == '10C' (error: 'first(players[0].hand, c => c.value > 9)' " \
           "is null here (no element matched?), so '.id' has no value)" in out


def test_the_account_read_and_shown_starts_where_the_position_was_set(tmp_path):
    """The random deal's lines come before the position: 'log' does not find them, and a
    failure shows the account only up to the first expectation that failed."""
    s = write(tmp_path, BASE.replace("""  - after: 1
    that: ["total == 97"]""", """  - after: 0
    not_log: ["you hold"]
    that: ["total == 1"]
  - after: 1
    that: ["total == 97"]"""))
    code, out = call("scenario", s)
    assert code == 1
    assert "after 0 decision(s): the account does not say 'you hold'" in out
    account = out.split("account of the game:")[1]
    assert "the position the scenario set:" in account and "Player 1 plays 3♣" not in account
    assert "more line" in account and "up to where the scenario stopped" in account


def test_points_named_the_wrong_way_get_the_right_way_said(tmp_path):
    body = """at: 'before: high'
expect:
  - at: {before: game_start}
  - at: {after: nowhere_near}
  - after: turn_end
"""
    code, out = call("scenario", steps_scenario(tmp_path, body))
    assert code == 1 and "Traceback" not in out
    assert "unknown point 'before: high': write {before: high}" in out
    assert "no step has the id 'game_start' in these rules (an overlay may have replaced it, or the options in " \
           "force leave it out): 'game_start' is a point of its own (at: game_start)" in out
    assert "; the ids here: deal, high" in out
    assert "'after' is a number of decisions, or 'end' (a point of the flow: at: turn_end)" in out
    code, out = call("scenario", steps_scenario(tmp_path, "expect:\n  - at: {on: turn_end}\n"))
    assert "unknown key 'on' in 'expect[0].at'; it takes 'before' and 'after'" in out
    code, out = call("scenario", steps_scenario(tmp_path, "expect:\n  - on: turn_end\n"))
    assert "unknown key 'on' in 'expect[0]' (did you mean 'at'?)" in out


def test_the_readmes_scenario_passes(tmp_path):
    readme = (pathlib.Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index('# yaml-language-server: $schema=../../schema/scenario.schema.json\nname: "The Horse')
    text = readme[start:readme.index("```", start)].replace("../../rulesets", "RULESETS")
    code, out = call("scenario", write(tmp_path, text))
    assert code == 0, out


FLOW = "name: flow\n" + CARDS + """options:
  variant: {choices: [plain, fancy], default: plain, description: v}
variables:
  n: 0
  k: 0
  rounds: 0
procedures:
  stop: [end_turn]
flow:
  setup:
    - choose: "[1, 2]"
      as: pick
      by: players[0]
      label: "setup {pick}"
    - set: {k: pick}
  round:
    - add: {rounds: 1}
    - set: {n: 0}
    - if: "options.variant == 'fancy'"
      then: [add: {n: 10}]
      id: maybe
    - repeat: [add: {n: 1}]
      until: "n >= 3"
      id: loop
    - deal: {from: stock, to: hand, count: 1}
    - turns:
        count: 2
        do:
          - choose: "current.hand"
            as: card
            label: "play {card}"
            id: play
          - move: {card: card, from: current.hand, to: pile}
            id: move
          - if: "rounds == 2"
            then: [call: stop]
          - log: "{current} ends the turn"
            id: last
  until: "rounds >= 2"
result:
  winners: "[]"
"""


def flow_scenario(tmp_path, expect):
    write(tmp_path, FLOW, "flow.yaml")
    return write(tmp_path, "name: flow\nruleset: flow.yaml\ndecisions: [setup 2]\nfinish: first\nexpect:\n" + expect)


@pytest.mark.parametrize("expect", [
    # right after a decision: the end of the choice, the next step, the round after the setup's choice
    "  - at: {after: play}\n    that: [\"count(pile) == 0\"]\n"
    "  - at: {before: move}\n    that: [\"count(pile) == 0\"]\n"
    "  - at: {after: move}\n    that: [\"count(pile) == 1\"]\n",
    "  - at: round_start\n    that: [\"k == 2\", \"rounds == 0\"]\n"
    "  - at: round_start\n    nth: 2\n    that: [\"rounds == 1\"]\n",
    # a loop's own start is 'before' it once a pass, not once each time round
    "  - at: {before: loop}\n    nth: 2\n    that: [\"rounds == 2\", \"n == 0\"]\n",
    # a step an option leaves empty still has its two ends
    "  - at: {after: maybe}\n    that: [\"n == 0\"]\n",
    # an end_turn in a called procedure skips the last step: its end comes only in round 1
    "  - at: {after: last}\n    nth: 2\n    that: [\"rounds == 1\"]\n"
    "  - at: {after: last}\n    nth: 3\n    that: [\"false\"]\n",
], ids=["after-a-decision", "round-after-setup-decision", "before-a-loop", "empty-step", "exit-from-a-call"])
def test_points_are_where_the_flow_really_is(tmp_path, expect):
    code, out = call("scenario", flow_scenario(tmp_path, expect))
    if "nth: 3" in expect:
        assert code == 1 and "after step 'last' (the 3rd time): never checked: the game ended" in out, out
        assert out.count("FAIL") == 2, out
    else:
        assert code == 0, out
