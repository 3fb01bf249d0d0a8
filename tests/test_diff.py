"""interpret diff: what differs between two rulesets, rule by rule, not line by line."""
from __future__ import annotations

import io
import pathlib

from interpreter.cli.main import run

RULESETS = pathlib.Path(__file__).parent.parent / "rulesets"
HEARTS2 = RULESETS / "hearts2.yaml"


def _call(*argv):
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def _variant(tmp_path, *edits) -> str:
    text = HEARTS2.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    return str(path)


def test_the_same_rules_written_otherwise_show_no_difference(tmp_path):
    path = _variant(tmp_path, ("# Hearts for two players", "# reworded comment"),
                    ('  heart: "card.suit == \'H\'"', "  heart: \"card.suit   ==   'H'\"  # spaced out"))
    code, out, _ = _call("diff", str(HEARTS2), path)
    assert code == 0 and "the same rules" in out


def test_a_house_rule_shows_only_what_it_changes(tmp_path):
    path = _variant(tmp_path,
                    ("name: hearts2", "name: black_maria"),
                    ('    points: "13 if card.special else 1 if card.heart else 0"',
                     '    points: "13 if card.special else 10 if card.rank == \'A\' and card.suit == \'S\' else 1 if card.heart else 0"'),
                    ("    - set: {dealer: dealer.left}", "    - log: next hand\n    - set: {dealer: dealer.left}"))
    code, out, _ = _call("diff", str(HEARTS2), path)
    lines = [line.strip() for line in out.splitlines()]
    assert code == 0 and lines[0].endswith("4 differences")
    assert "name: hearts2 -> black_maria" in lines
    assert "card attribute points: AS 0 -> 10" in lines
    assert "flow round:" in lines and "+ {log: next hand}" in lines and "after {for_each: p, in: players}" in lines   # the step before, in the same list
    assert not any("option" in line or "variable" in line for line in lines)


def test_options_variables_and_triggers_added_removed_or_changed(tmp_path):
    path = _variant(tmp_path,
                    ("    choices: [100, 50, 150, 200]\n    default: 100", "    choices: [100, 50, 150, 200]\n    default: 50"),
                    ("  match_winner: {type: player, initial: null}\n", "  match_winner: {type: player, initial: null}\n  moons: 0\n"),
                    ("  hand_points: 0\n", "  hand_points: 1\n"),
                    ("    params: [p]\n    expr: \"all(p.hand, c => c.heart)\"",
                     "    params: [p]\n    expr: \"all(p.hand, c => c.heart or c.special)\""))
    code, out, err = _call("diff", str(HEARTS2), path)
    assert code == 0, err
    assert "option target_score: default 100 -> 50" in out
    assert "variable moons added: 0" in out
    assert "player variable hand_points: 0 -> 1" in out
    assert "function only_hearts expr: all(p.hand, c => c.heart) -> all(p.hand, c => c.heart or c.special)" in out


def test_a_broken_ruleset_is_reported_as_validate_reports_it(tmp_path):
    path = _variant(tmp_path, ("zone: stock\n", "zone: stok\n"))
    code, _, err = _call("diff", str(HEARTS2), path)
    assert code == 1 and "unknown zone 'stok'" in err and "variant.yaml:" in err


def _overlay(tmp_path, name, text) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _changes(base, overlay) -> list[str]:
    """What `interpret diff` prints under its first line."""
    code, out, err = _call("diff", str(RULESETS / f"{base}.yaml"), overlay)
    assert code == 0, err
    return out.splitlines()[1:]


def test_a_step_inserted_after_the_trick_is_taken_is_shown_in_the_trick_loop(tmp_path):
    path = _overlay(tmp_path, "house.yaml", "extends: hearts2\nname: house\n"
                                            "steps: [{after: take_trick, insert: [log: a trick is taken]}]\n")
    assert _changes("hearts2", path) == [
        "  name: hearts2 -> house",
        "  flow round:",
        "    in repeat, after {for_each: p, in: players, id: take_trick}",
        "    + {log: a trick is taken}"]


def test_a_step_inserted_after_the_turns_of_a_trick_is_shown_in_the_trick_loop(tmp_path):
    path = _overlay(tmp_path, "house.yaml", "extends: hearts2\nname: house\n"
                                            "steps: [{after: trick, insert: [log: the trick is over]}]\n")
    assert _changes("hearts2", path)[1:] == [
        "  flow round:",
        "    in repeat, after {turns: {first: leader, count: num_players}, id: trick}",
        "    + {log: the trick is over}"]


def test_steps_changed_at_any_depth_are_each_shown_with_their_path(tmp_path):
    """A condition inside the turns of a trick, the steps of a replaced step, a phase's step:
    each is shown, under the steps that hold it."""
    path = _overlay(tmp_path, "house.yaml", """extends: hearts2
name: house
set:
  flow.round.11.repeat.2.turns.do.2.if: "card.heart and not broken"
  flow.phases.sudden_death.end.1.log: sudden death is over
steps:
  - replace: take_trick
    insert:
      - for_each: p
        in: players
        do: [move: {from: p.played, to: current.taken}]
""")
    assert _changes("hearts2", path)[1:] == [
        "  flow round:",
        "    in repeat > turns (trick) > do, after {move: {card: card, from: current.hand, to: current.played}}",
        "    - {if: card.heart and options.hearts_broken_by == 'heart_played' and not broken}",
        "    + {if: card.heart and not broken}",
        "    in repeat > for_each p (take_trick) > do, at the start",
        "    - {move: {from: p.played, to: leader.taken}}",
        "    + {move: {from: p.played, to: current.taken}}",
        "  phase sudden_death end:",
        "    after {set: {match_winner: 'min_by(players, p => p.hand_points)'}}",
        "    - {log: {en: 'sudden death: {match_winner} took fewer points', el: 'αιφνίδιος θάνατος: "
        "{match_winner} πήρε λιγότερους πόντους'}}",
        "    + {log: sudden death is over}"]


def test_a_step_removed_from_a_trigger_and_one_replaced_in_a_procedure_are_shown(tmp_path):
    assert _changes("gnav", str(RULESETS.parent / "examples" / "house_rules" / "gnav_harmless_dragon.yaml"))[2:] == [
        "  trigger on ask when piece.kind == 'dragon' and not accepted:",
        "    after {log: {say: dragon_refuses, with: {holder: to, piece: piece, asker: from}}}",
        "    - {call: pay, with: {payer: from}, id: dragon_pay}"]
    assert _changes("gnav2", str(RULESETS.parent / "examples" / "house_rules" / "gnav2_seven_cards.yaml"))[2:5] == [
        "  procedure refill:",
        "    in if count(stock) == 0 and count(current.hand) < 10 > else > "
        "if options.refill_rule == 'up_to_10' (refill_draw) > then, at the start",
        "    - {draw: {from: stock, to: current.hand, count: 'max([0, 10 - count(current.hand)])'}}"]


def test_a_step_that_only_loses_its_id_is_no_difference(tmp_path):
    path = _overlay(tmp_path, "house.yaml", "extends: hearts2\nname: house\n"
                                            "steps: [{replace: opening, insert: [set: {opening: \"min_by(filter(all_cards, "
                                            "c => c.suit == 'C' and c.rank in ['2', '4', '6'] and not (c in dead)), "
                                            "c => c.order)\", broken: false, trick_no: 0}]}]\n")
    assert _changes("hearts2", path) == ["  name: hearts2 -> house"]


def test_a_procedure_given_parameters_shows_them_and_its_steps_changed(tmp_path):
    path = _overlay(tmp_path, "house.yaml", """extends: gnav
name: house
procedures:
  ask_bag:
    params: {}
    do:
      - if: "count(bag) == 0"
        then: [log: "the bag is empty", end_turn]
""")
    lines = _changes("gnav", path)
    assert lines[1:5] == ["  procedure ask_bag params: (none) -> {}",
                          "  procedure ask_bag:",
                          "    at the start",
                          lines[4]]
    assert lines[4].startswith("    - {log: {en: '{current} asks the bag'")
    assert lines[5:8] == ["    in if count(bag) == 0 > then, at the start",
                          "    - {log: {en: the bag is empty, fr: le sac est vide, 'no': posen er tom}}",
                          "    + {log: the bag is empty}"]
    assert "    after {if: count(bag) == 0}" in lines and "    -   {move: {from: candidate, to: aside}}" in lines


def test_a_step_holding_quotes_is_shown_as_a_person_writes_it():
    """An expression of quotes ('' or 'H') reads in double quotes, not as YAML's ''''''."""
    from interpreter.authoring.diff import _short
    assert _short({"set": {"led_suit": "''"}}) == "{set: {led_suit: \"''\"}}"
    assert _short({"if": "suit == 'H'", "then": ["x"]}) == "{if: suit == 'H', then: [x]}"      # plain where it may be
    assert _short({"log": "'a' + x"}) == "{log: \"'a' + x\"}"
