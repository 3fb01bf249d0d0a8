"""House rules as overlays: a small file that extends a ruleset and says only what differs,
checked as one ruleset, every problem at its line in the file that caused it."""
from __future__ import annotations

import io
import pathlib

import pytest

from interpreter import apply, new_game, pipeline
from interpreter.cli.main import run
from interpreter.errors import RulesError, RulesetError

RULESETS = pathlib.Path(__file__).parent.parent / "rulesets"

BASE = """name: base
players: 2
options:
  goal: {description: rounds to play, choices: [2, 3], default: 2}
deck: {cards: [{id: a, value: 1}, {id: b, value: 2}], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  round_no: 0
  tally: 0
functions:
  double: {params: [x], expr: "x * 2"}
flow:
  round:
    - add: {round_no: 1}
      id: count_round
    - add: {tally: "double(1)"}
      id: add_tally
  until: "round_no == options.goal"
result: {winners: "[]"}
"""


def _write(tmp_path, name, text) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _problems(path) -> str:
    with pytest.raises(RulesetError) as e:
        pipeline.load_program(path)
    return str(e.value)


def _final(program, **kw):
    s = new_game(program, log=False, **kw)
    assert s.over
    return s


def test_a_ruleset_may_give_its_steps_ids_and_plays_as_before(tmp_path):
    program = pipeline.load_program(_write(tmp_path, "base.yaml", BASE))
    s = _final(program)
    assert s.vars == {"round_no": 2, "tally": 4}


def test_two_steps_with_one_id_are_reported_at_the_second(tmp_path):
    text = BASE.replace("      id: add_tally", "      id: count_round")
    message = _problems(_write(tmp_path, "base.yaml", text))
    assert "base.yaml:17:11: the id 'count_round' is given to two steps" in message


def test_an_overlay_sets_values_adds_entries_and_inserts_steps_at_an_id(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    path = _write(tmp_path, "house.yaml", """extends: base.yaml
name: house
variables:
  bonus: 0
functions:
  double: {params: [x], expr: "x * 3"}
set:
  options.goal.default: 3
steps:
  - after: count_round
    insert: [add: {bonus: 5}]
""")
    program = pipeline.load_program(path)
    assert program.name == "house" and program.options == {"goal": 3}
    assert _final(program).vars == {"round_no": 3, "tally": 9, "bonus": 15}


def test_replace_and_remove_steps_and_remove_entries(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    path = _write(tmp_path, "house.yaml", """extends: base.yaml
name: house
remove: [functions.double]
steps:
  - replace: add_tally
    insert: [add: {tally: 10}]
""")
    assert _final(pipeline.load_program(path)).vars == {"round_no": 2, "tally": 20}
    path = _write(tmp_path, "house2.yaml", """extends: base.yaml
name: house2
steps:
  - remove: add_tally
""")
    assert _final(pipeline.load_program(path)).vars == {"round_no": 2, "tally": 0}


def test_an_overlay_may_extend_an_overlay(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    _write(tmp_path, "first.yaml", "extends: base.yaml\nname: first\nset: {options.goal.default: 3}\n"
                                   "steps: [{after: add_tally, insert: [{add: {tally: 100}, id: big}]}]\n")
    path = _write(tmp_path, "second.yaml", "extends: first.yaml\nname: second\nsteps: [{replace: big, insert: [add: {tally: 1000}]}]\n")
    assert _final(pipeline.load_program(path)).vars == {"round_no": 3, "tally": 3 * 1002}


def test_a_mistake_in_an_overlay_is_reported_at_its_line_in_the_overlay(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    message = _problems(_write(tmp_path, "house.yaml", """extends: base.yaml
name: house
set:
  options.gaol.default: 3
steps:
  - after: count_rounds
    insert: [log: hello]
functions:
  double: {params: [x], expr: "x and 'two'"}
"""))
    assert "house.yaml:4:3: 'options.gaol.default': the base has no 'options.gaol' (did you mean 'goal'?)" in message
    assert "house.yaml:6:12: no step has the id 'count_rounds' (did you mean 'count_round'?)" in message
    assert "house.yaml:9:" in message and "base.yaml" not in message


def test_a_problem_the_overlay_causes_in_the_base_is_reported_in_the_base(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    message = _problems(_write(tmp_path, "house.yaml", "extends: base.yaml\nname: house\nremove: [functions.double]\n"))
    assert "base.yaml:16:21: unknown function 'double'" in message
    assert "as " + str(tmp_path / "house.yaml") + " changes it" in message          # the step that still calls it


def test_a_plain_value_the_overlay_gives_is_reported_at_its_line_in_the_overlay(tmp_path):
    """A number or a text the overlay puts in place of the base's (a top-level key, a named
    entry, a path it sets) is at the overlay's line, not at the base's value it replaced."""
    _write(tmp_path, "base.yaml", BASE)
    message = _problems(_write(tmp_path, "house.yaml", "extends: base.yaml\nname: 5\nfunctions: {triple: 5}\n"
                                                       "set: {options.goal.description: 7}\n"))
    lines = [line for line in message.splitlines() if not line.startswith(" ")]
    assert len(lines) == 3 and all("house.yaml:" in line for line in lines), message
    assert "house.yaml:2:7: 'name' should be a string, not a number" in message
    assert "house.yaml:3:21:" in message and "house.yaml:4:" in message


def test_an_overlay_whose_base_is_missing_says_so(tmp_path):
    message = _problems(_write(tmp_path, "house.yaml", "extends: heats2\nname: house\n"))
    assert "house.yaml:1:10: no ruleset 'heats2' here or among the shipped ones (did you mean 'hearts2'?)" in message


def test_extends_names_a_shipped_ruleset(tmp_path):
    path = _write(tmp_path, "short.yaml", "extends: hearts2\nname: hearts2_to_30\nset: {options.target_score.default: 30}\n")
    program = pipeline.load_program(path)
    assert program.name == "hearts2_to_30" and program.options["target_score"] == 30


def test_a_rules_error_in_an_inserted_step_names_the_overlay(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    path = _write(tmp_path, "house.yaml", """extends: base.yaml
name: house
variables:
  who: {type: player, initial: null}
player_variables:
  pts: 0
steps:
  - after: count_round
    insert: [add: {who.pts: 1}]
""")
    for backend in pipeline.BACKENDS:
        with pytest.raises(RulesError) as e:
            new_game(pipeline.load_program(path, backend=backend), log=False)
        assert str(e.value).startswith(f"{path}:9:") and "insert: [add: {who.pts: 1}]" in str(e.value)


def test_diff_shows_only_what_the_overlay_changes(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    path = _write(tmp_path, "house.yaml", "extends: base.yaml\nname: house\nset: {options.goal.default: 3}\n")
    out = io.StringIO()
    assert run(["diff", str(tmp_path / "base.yaml"), path], stdout=out) == 0
    assert out.getvalue().splitlines()[1:] == ["  name: base -> house", "  option goal: default 2 -> 3"]


def test_a_record_of_an_overlay_replays_and_notices_a_changed_base(tmp_path):
    _write(tmp_path, "base.yaml", BASE.replace("round:\n", "round:\n    - choose: [x, y]\n      as: pick\n      by: player(0)\n"))
    path = _write(tmp_path, "house.yaml", "extends: base.yaml\nname: house\n")
    record = tmp_path / "game.json"
    out, err = io.StringIO(), io.StringIO()
    assert run([path, "--seed", "2", "--quiet", "--record", str(record)], stdout=out, stderr=err) == 0, err.getvalue()
    out = io.StringIO()
    assert run(["replay", str(record)], stdout=out) == 0 and "replay ok" in out.getvalue()
    base = tmp_path / "base.yaml"
    base.write_text(base.read_text().replace("double(1)", "double(2)"))
    out, err = io.StringIO(), io.StringIO()
    run(["replay", str(record)], stdout=out, stderr=err)
    assert "differs from the recorded one" in out.getvalue() + err.getvalue()


def test_compare_takes_an_overlay_as_a_variant(tmp_path):
    path = _write(tmp_path, "short.yaml", "extends: hearts2\nname: hearts2\nset: {options.target_score.default: 30}\n")
    out = io.StringIO()
    assert run(["compare", str(RULESETS / "hearts2.yaml"), path, "--games", "10", "--jobs", "1"], stdout=out) == 0
    assert f"{path} against base" in out.getvalue() and "Games last" in out.getvalue()


EXAMPLES = sorted(p for p in (RULESETS.parent / "examples" / "house_rules").glob("*.yaml")
                  if not p.stem.endswith("_scenario"))
BASES = {"hearts2": "hearts2", "ninety_nine": "ninety_nine", "gnav": "gnav", "gnav2": "gnav2"}


def _base_of(example: pathlib.Path) -> pathlib.Path:
    game = max((g for g in BASES if example.stem.startswith(g + "_")), key=len)
    return RULESETS / f"{game}.yaml"


def test_there_are_three_house_rules_for_each_seed_game():
    games = [_base_of(p).stem for p in EXAMPLES]
    assert all(games.count(g) >= 3 for g in BASES), games


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_house_rule_is_short_validates_plays_passes_its_scenario_and_compares(example):
    from interpreter.play.scenario import run_file
    assert len(example.read_text().splitlines()) <= 25
    program = pipeline.load_program(str(example))
    s = new_game(program, seed=1, log=False)
    while not s.over:
        apply(program, s, 0)
    report = run_file(str(example.with_name(example.stem + "_scenario.yaml")))
    assert report.passed, [text for ok, text in report.results if not ok]
    out, err = io.StringIO(), io.StringIO()
    assert run(["compare", str(_base_of(example)), str(example), "--games", "4", "--jobs", "1"],
               stdout=out, stderr=err) == 0
    assert "against base" in out.getvalue() and "warning" not in err.getvalue()     # a house rule of the same game


def test_diff_of_an_example_prints_only_what_the_house_rule_changes():
    out = io.StringIO()
    example = RULESETS.parent / "examples" / "house_rules" / "hearts2_black_maria.yaml"
    assert run(["diff", str(RULESETS / "hearts2.yaml"), str(example)], stdout=out) == 0
    lines = out.getvalue().splitlines()[1:]
    assert [line.split(":")[0].strip() for line in lines] == ["name", "title", "card attribute points",
                                                               "card attribute points reads"]


def test_new_writes_a_starter_overlay_that_validates_where_it_is(tmp_path):
    target = tmp_path / "club" / "my_hearts.yaml"
    target.parent.mkdir()
    out, err = io.StringIO(), io.StringIO()
    assert run(["new", str(target), "--from", "hearts2"], stdout=out, stderr=err) == 0, err.getvalue()
    text = target.read_text()
    schema = text.splitlines()[0].split("$schema=")[1]
    assert (target.parent / schema).resolve().name == "overlay.schema.json" and (target.parent / schema).exists()
    assert "extends: hearts2" in text and "name: my_hearts" in text
    program = pipeline.load_program(str(target))
    assert program.name == "my_hearts"
    assert run(["new", str(target), "--from", "hearts2"], stdout=io.StringIO(), stderr=err) == 2
    assert "exists already" in err.getvalue()
    err = io.StringIO()
    assert run(["new", str(tmp_path / "x.yaml"), "--from", "heart2"], stdout=io.StringIO(), stderr=err) == 2
    assert "'heart2' is neither a file nor a shipped game (did you mean 'hearts2'?)" in err.getvalue()


def test_a_trigger_with_an_id_can_be_replaced_or_removed(tmp_path):
    base = BASE.replace("result:", """triggers:
  - on: round_end
    id: bonus
    do: [add: {tally: 100}]
result:""")
    _write(tmp_path, "base.yaml", base)
    assert _final(pipeline.load_program(str(tmp_path / "base.yaml"))).vars["tally"] == 204
    path = _write(tmp_path, "swap.yaml", """extends: base.yaml
name: swap
triggers:
  - on: round_end
    id: bonus
    do: [add: {tally: 1000}]
""")
    assert _final(pipeline.load_program(path)).vars["tally"] == 2004
    path = _write(tmp_path, "gone.yaml", "extends: base.yaml\nname: gone\nremove: [triggers.bonus]\n")
    assert _final(pipeline.load_program(path)).vars["tally"] == 4
    message = _problems(_write(tmp_path, "bad.yaml", "extends: base.yaml\nname: bad\nremove: [triggers.bonsu]\n"))
    assert "bad.yaml:3:10: 'triggers.bonsu': no trigger has the id 'bonsu' (did you mean 'bonus'?)" in message


def test_an_overlays_rules_hash_does_not_change_with_the_ids_of_its_base(tmp_path):
    """Ids change nothing in play: a record of an overlay is not 'changed' by an id given
    in its base (they are kept for scenarios, not for the hash)."""
    from interpreter.source.overlay import rules_hash
    _write(tmp_path, "base.yaml", BASE)
    overlay = _write(tmp_path, "house.yaml", "extends: base.yaml\nset: {variables.tally: 5}\n")
    before = rules_hash(overlay)
    _write(tmp_path, "base.yaml", BASE.replace("      id: add_tally", "      id: add_tally_again"))
    assert rules_hash(overlay) == before
    _write(tmp_path, "base.yaml", BASE.replace("double(1)", "double(2)"))
    assert rules_hash(overlay) != before


def test_a_step_edit_holds_where_a_path_set_goes_through_the_same_steps(tmp_path):
    """`set:` on a path through a list of steps copies that list for the combination; an
    edit at a step id of that list (in the same overlay or one extending it) is made there,
    not in the base's list that the combination no longer holds."""
    _write(tmp_path, "base.yaml", BASE)
    path = _write(tmp_path, "house.yaml", "extends: base.yaml\nname: house\nset: {flow.round.0.add.round_no: 1}\n"
                                          "steps: [{remove: add_tally}]\n")
    assert _final(pipeline.load_program(path)).vars == {"round_no": 2, "tally": 0}
    _write(tmp_path, "first.yaml", "extends: base.yaml\nname: first\nset: {flow.round.1.add.tally: 5}\n")
    path = _write(tmp_path, "second.yaml", "extends: first.yaml\nname: second\n"
                                           "steps: [{after: count_round, insert: [add: {tally: 100}]}]\n")
    assert _final(pipeline.load_program(path)).vars == {"round_no": 2, "tally": 210}
