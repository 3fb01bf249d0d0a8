"""Options with free values: `type: integer` (or number, boolean) with min and max beside the
listed choices, so that a house rule such as "play to 60" needs no new ruleset."""
from __future__ import annotations

import io
import pathlib

import pytest

from interpreter import pipeline
from interpreter.cli.main import run
from interpreter.errors import RulesetError, UsageError

HEARTS2 = str(pathlib.Path(__file__).parent.parent / "rulesets" / "hearts2.yaml")

FREE = """name: free
players: 2
options:
  target: {description: points to play to, type: integer, min: 1, max: 500, choices: [10, 20], default: 10}
  bonus: {description: a bonus, type: number, min: 0, choices: [0.5], default: 0.5}
  loud: {description: say it, type: boolean, choices: [false], default: false}
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  goal: {type: number, initial: "options.target + options.bonus"}
  shout: {type: bool, initial: "options.loud"}
flow:
  round: []
result: {winners: "[]"}
"""


def _call(*argv):
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_a_free_value_within_min_and_max_is_taken_as_a_number():
    from interpreter import new_game
    program = pipeline.load_program_text(FREE, "free.yaml", {"target": "60", "bonus": "2.25", "loud": "yes"})
    s = new_game(program)
    assert program.options == {"target": 60, "bonus": 2.25, "loud": True}
    assert s.vars["goal"] == 62.25 and s.vars["shout"] is True


@pytest.mark.parametrize("option, raw, says", [
    ("target", "0", "must be a whole number from 1 to 500, not '0'"),
    ("target", "-5", "must be a whole number from 1 to 500, not '-5'"),
    ("target", "6.5", "must be a whole number from 1 to 500, not '6.5'"),
    ("target", "sixty", "must be a whole number from 1 to 500, not 'sixty'"),
    ("target", "1e400", "must be a whole number from 1 to 500"),
    ("bonus", "-1", "must be a number of at least 0, not '-1'"),
    ("loud", "maybe", "must be true or false, not 'maybe'"),
])
def test_a_free_value_out_of_range_or_of_another_type_is_refused_clearly(option, raw, says):
    with pytest.raises(UsageError, match=says.replace("(", r"\(").replace(")", r"\)")):
        pipeline.load_program_text(FREE, "free.yaml", {option: raw})


def test_an_option_without_a_type_still_takes_only_its_choices():
    text = FREE.replace("type: integer, min: 1, max: 500, ", "")
    with pytest.raises(UsageError, match="cannot be '60'; choose one of: 10, 20"):
        pipeline.load_program_text(text, "free.yaml", {"target": "60"})


def test_a_default_or_choice_outside_the_type_is_reported_at_its_line():
    text = FREE.replace("choices: [10, 20], default: 10", "choices: [10, 600], default: 2.5")
    with pytest.raises(RulesetError) as e:
        pipeline.load_program_text(text, "free.yaml")
    message = str(e.value)
    assert "free.yaml:4:" in message
    assert "2.5 is not a whole number from 1 to 500, as option 'target' asks" in message
    assert "600 is not a whole number from 1 to 500" in message


def test_play_to_sixty_in_hearts2_from_the_command_line():
    code, out, _ = _call("simulate", HEARTS2, "--option", "target_score=60", "--games", "20", "--json")
    assert code == 0 and '"target_score": 60' in out
    code, _, err = _call("simulate", HEARTS2, "--option", "target_score=0", "--games", "2")
    assert code == 2 and "must be a whole number from 1 to 10000, not '0'" in err
    code, out, _ = _call("options", HEARTS2)
    assert "any value: a whole number from 1 to 10000" in out


def test_a_record_of_a_game_with_a_free_value_replays(tmp_path):
    record = tmp_path / "g.json"
    code, _, err = _call(HEARTS2, "--seed", "4", "--option", "target_score=30", "--quiet", "--record", str(record))
    assert code == 0, err
    code, out, err = _call("replay", str(record))
    assert code == 0 and "replay ok" in out, err
