"""House rules as overlays: a small file that extends a ruleset and says only what differs,
checked as one ruleset, every problem at its line in the file that caused it."""
from __future__ import annotations

import io
import pathlib

import pytest

from interpreter import apply, new_game, pipeline
from interpreter.cli.main import run
from interpreter.errors import RulesFault, RulesetError

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
        with pytest.raises(RulesFault) as e:
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
    from interpreter.authoring.scenario import run_file
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


# One mistake in each kind of entry an overlay can set: exactly what `interpret validate`
# prints, at the line and column in the overlay, and nothing more (no follow-on problem in
# the base that uses the entry).
ENTRY_MISTAKES = {
    "deck": ("hearts2", "deck:\n  exclude: [QS, QSS]\n",
             "house.yaml:4:17: excluded card 'QSS' is not in the deck (did you mean 'QS'?)\n"
             "      exclude: [QS, QSS]\n"
             "                    ^\n"),
    "attributes": ("hearts2", "deck:\n  attributes:\n    points: \"13 if card.id == 'QHH' else 1 if card.heart else 0\"\n",
                   "house.yaml:5:31: no card of the deck has id 'QHH' (did you mean 'QH'?)\n"
                   "        points: \"13 if card.id == 'QHH' else 1 if card.heart else 0\"\n"
                   "                                  ^\n"),
    "options": ("hearts2", "options:\n  special_queen: {description: which queen, choices: [spades, clubs], default: diamonds}\n",
                "house.yaml:4:80: default 'diamonds' of option 'special_queen' is not one of its choices\n"
                "      special_queen: {description: which queen, choices: [spades, clubs], default: diamonds}\n"
                "                                                                                   ^\n"),
    "an option of the wrong shape": ("hearts2", "options:\n  special_queen: spades\n",
                                     "house.yaml:4:18: 'options.special_queen' should be a mapping, not a string\n"
                                     "      special_queen: spades\n"
                                     "                     ^\n"),
    "variables": ("hearts2", "variables:\n  trick_no: {initial: \"count(stok)\", type: number}\n",
                  "house.yaml:4:30: unknown name 'stok' (did you mean 'stock'?)\n"
                  "      trick_no: {initial: \"count(stok)\", type: number}\n"
                  "                                 ^\n"),
    "a variable of the wrong shape": ("hearts2", "player_variables:\n  score: [0]\n",
                                      "house.yaml:4:10: 'player_variables.score' should be a number or true or "
                                      "false or a string or a mapping, not a list\n"
                                      "      score: [0]\n"
                                      "             ^\n"),
    "a zone of the wrong shape": ("hearts2", "zones:\n  taken: 5\n",
                                  "house.yaml:4:10: 'zones.taken' should be a mapping, not a number\n"
                                  "      taken: 5\n"
                                  "             ^\n"),
    "functions": ("hearts2", "functions:\n  only_hearts: {params: [p], expr: \"all(p.hand, c => c.hart)\"}\n",
                  "house.yaml:4:56: cards have no attribute 'hart' (did you mean 'heart'?)\n"
                  "      only_hearts: {params: [p], expr: \"all(p.hand, c => c.hart)\"}\n"
                  "                                                           ^\n"),
    "a function that does not parse": (
        "hearts2", "functions:\n  only_hearts: {params: [p], expr: \"all(p.hand, c => c.heart\"}\n",
        "house.yaml:4:56: the expression ends too early\n"
        "      only_hearts: {params: [p], expr: \"all(p.hand, c => c.heart\"}\n"
        "                                                           ^\n"),
    "a function of the wrong shape": (
        "hearts2", "functions:\n  only_hearts: {params: p, expr: \"all(p.hand, c => c.heart)\"}\n",
        "house.yaml:4:25: 'functions.only_hearts.params' should be a list, not a string\n"
        "      only_hearts: {params: p, expr: \"all(p.hand, c => c.heart)\"}\n"
        "                            ^\n"),
    "an event of the wrong shape": ("gnav", "events:\n  ask: 3\n",
                                    "house.yaml:4:8: 'events.ask' should be a mapping, not a number\n"
                                    "      ask: 3\n"
                                    "           ^\n"),
    "texts": ("gnav", "texts:\n  cuckoo_stops: {en: \"{holdr.name} reveals the Cuckoo\"}\n",
              "house.yaml:4:24: unknown name 'holdr' (did you mean 'holder'?)\n"
              "      cuckoo_stops: {en: \"{holdr.name} reveals the Cuckoo\"}\n"
              "                           ^\n"),
    "a text of the wrong shape": ("gnav", "texts:\n  cuckoo_stops: [1]\n",
                                  "house.yaml:4:17: 'texts.cuckoo_stops' should be a string or a number or a "
                                  "mapping, not a list\n"
                                  "      cuckoo_stops: [1]\n"
                                  "                    ^\n"),
    "table": ("hearts2", "table:\n  points_now: {label: points, per_player: \"sum(p.takn, c => c.points)\"}\n",
              "house.yaml:4:50: players have no attribute 'takn' (did you mean 'taken'?)\n"
              "      points_now: {label: points, per_player: \"sum(p.takn, c => c.points)\"}\n"
              "                                                     ^\n"),
    "statistics": ("hearts2", "statistics:\n  moons: {per: round, value: \"shoter != null\"}\n",
                   "house.yaml:4:31: unknown name 'shoter' (did you mean 'shooter'?)\n"
                   "      moons: {per: round, value: \"shoter != null\"}\n"
                   "                                  ^\n"),
    "result": ("hearts2", "result:\n  winners: \"[match_winer] if match_winner != null else lowest()\"\n",
               "house.yaml:4:14: unknown name 'match_winer' (did you mean 'match_winner'?)\n"
               "      winners: \"[match_winer] if match_winner != null else lowest()\"\n"
               "                 ^\n"),
    "set": ("hearts2", "set:\n  deck.attributes.points: \"13 if card.rnk == 'Q' else 0\"\n",
            "house.yaml:4:39: cards have no attribute 'rnk' (did you mean 'rank'?)\n"
            "      deck.attributes.points: \"13 if card.rnk == 'Q' else 0\"\n"
            "                                          ^\n"),
}


def _validate(tmp_path, monkeypatch, name) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    return run(["validate", name], stdout=out), out.getvalue()


@pytest.mark.parametrize("kind", ENTRY_MISTAKES)
def test_a_mistake_in_each_kind_of_entry_is_reported_once_at_its_place_in_the_overlay(kind, tmp_path, monkeypatch):
    base, body, expected = ENTRY_MISTAKES[kind]
    _write(tmp_path, "house.yaml", f"extends: {base}\nname: house\n{body}")
    assert _validate(tmp_path, monkeypatch, "house.yaml") == (1, expected)


def test_an_attribute_mistake_is_in_the_overlay_when_extends_is_a_path_or_an_overlay(tmp_path, monkeypatch):
    """The issue's case: a misspelt attribute of a derived card attribute, the base named by
    a path (not a shipped name), and an overlay of that overlay: each time once, in the
    overlay that wrote it, and none of the base's uses of `points` reported."""
    body = "deck:\n  attributes:\n    points: \"13 if card.idd == 'QS' else 1 if card.heart else 0\"\n"
    _write(tmp_path, "house.yaml", f"extends: {RULESETS / 'hearts2.yaml'}\nname: house\n{body}")
    _write(tmp_path, "more.yaml", "extends: house.yaml\nname: more\ntitle: more\n")
    expected = ("house.yaml:5:25: cards have no attribute 'idd' (did you mean 'id'?)\n"
                "        points: \"13 if card.idd == 'QS' else 1 if card.heart else 0\"\n"
                "                            ^\n")
    assert _validate(tmp_path, monkeypatch, "house.yaml") == (1, expected)
    code, out = _validate(tmp_path, monkeypatch, "more.yaml")
    assert code == 1 and out == expected.replace("house.yaml:", str(tmp_path / "house.yaml") + ":") + \
        f"    hint: in {tmp_path / 'house.yaml'} as more.yaml changes it\n"


def test_an_attribute_that_reads_one_that_could_not_be_derived_adds_no_problem(tmp_path, monkeypatch):
    _write(tmp_path, "house.yaml", "extends: hearts2\nname: house\ndeck:\n  attributes:\n"
                                   "    special: \"card.rank == 'Q' and card.suitt == 'S'\"\n")
    code, out = _validate(tmp_path, monkeypatch, "house.yaml")
    assert code == 1 and out.startswith("house.yaml:5:41: cards have no attribute 'suitt' (did you mean 'suit'?)\n")
    assert len([line for line in out.splitlines() if not line.startswith(" ")]) == 1, out


def test_the_overlays_own_problems_come_before_those_it_causes_in_its_base(tmp_path, monkeypatch):
    _write(tmp_path, "a_base.yaml", BASE)
    _write(tmp_path, "z_house.yaml", "extends: a_base.yaml\nname: house\nremove: [functions.double]\n"
                                     "variables: {bonus: {initial: \"count(stok)\", type: number}}\n")
    code, out = _validate(tmp_path, monkeypatch, "z_house.yaml")
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert code == 1 and heads == [
        "z_house.yaml:4:37: unknown name 'stok' (did you mean 'stock'?)",
        f"{tmp_path / 'a_base.yaml'}:16:21: unknown function 'double'"], out


def test_a_problem_in_a_base_expression_written_over_lines_is_at_its_own_line_and_column(tmp_path, monkeypatch):
    """A folded (>) or literal (|) expression of the base: the caret is under the name, on
    the line it is on, not at the start of the text."""
    base = BASE.replace('    - add: {tally: "double(1)"}',
                        "    - add:\n        tally: >\n          1 +\n            double(1)").replace(
        '  until: "round_no == options.goal"', "  until: |\n    round_no ==\n      double(options.goal)")
    _write(tmp_path, "base.yaml", base)
    _write(tmp_path, "house.yaml", "extends: base.yaml\nname: house\nremove: [functions.double]\n")
    code, out = _validate(tmp_path, monkeypatch, "house.yaml")
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert code == 1 and heads == [f"{tmp_path / 'base.yaml'}:19:13: unknown function 'double'",
                                   f"{tmp_path / 'base.yaml'}:23:7: unknown function 'double'"], out


def test_texts_and_table_entries_are_added_or_replaced_by_name(tmp_path):
    """An overlay's `texts:` and `table:` change the entries they name; the base's others stay."""
    path = _write(tmp_path, "house.yaml", """extends: gnav
name: house
texts:
  cuckoo_stops: {en: "{'the bag' if holder == null else holder.name} shows the Cuckoo", fr: "-", "no": "-"}
table:
  pieces_left: {value: "count(bag)"}
""")
    program = pipeline.load_program(path)
    base = pipeline.load_program(str(RULESETS / "gnav.yaml"))
    texts = program.rules[0]["texts"]
    assert texts["cuckoo_stops"]["en"].endswith("shows the Cuckoo") and set(texts) == set(base.rules[0]["texts"])
    assert set(program.rules[0]["table"]) == set(base.rules[0].get("table") or {}) | {"pieces_left"}


def test_a_plain_value_set_into_a_list_is_reported_at_its_line_in_the_overlay(tmp_path, monkeypatch):
    _write(tmp_path, "house.yaml", "extends: hearts2\nname: house\nset:\n  flow.round.1: 5\n")
    code, out = _validate(tmp_path, monkeypatch, "house.yaml")
    assert code == 1 and out.startswith("house.yaml:4:17: item 2 of 'flow.round' is 5;") and "hearts2.yaml" not in out


def test_a_step_edit_at_a_step_a_set_path_replaced_is_a_problem_of_the_overlay(tmp_path, monkeypatch):
    _write(tmp_path, "house.yaml", "extends: ninety_nine\nname: house\nset:\n  flow.round.1: {log: hello}\n"
                                   "steps: [{after: deal, insert: [log: dealt]}]\n")
    assert _validate(tmp_path, monkeypatch, "house.yaml") == (1, (
        "house.yaml:5:17: no step has the id 'deal' any more: a path in set: replaced it\n"
        "    steps: [{after: deal, insert: [log: dealt]}]\n"
        "                    ^\n"))
