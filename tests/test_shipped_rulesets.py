"""The shipped rulesets as a person reads and edits them: they show the language at its best.

A procedure takes what it needs as parameters (`call: NAME` + `with:`), not through a global
variable set just before the call; a text too long for a line is a text of the catalogue
(`texts:`, said by key) or is folded over several lines; a phase's `then` reads at a glance,
a longer choice being a function named for what it gives.  (Issue 27, item 8.)
"""
from __future__ import annotations

import re

import pytest
import yaml

from conftest import QUICK_LOADER, ruleset
from interpreter.source.shipped import shipped_names

GAMES = shipped_names()
LONGEST_LINE = 200


def _text(game: str) -> str:
    with open(ruleset(game), encoding="utf-8") as f:
        return f.read()


def _data(game: str) -> dict:
    return yaml.load(_text(game), Loader=QUICK_LOADER)


def _step_lists(node):
    """Every list of steps (or of anything) in the data, wherever it lies."""
    if isinstance(node, dict):
        for v in node.values():
            yield from _step_lists(v)
    elif isinstance(node, list):
        yield node
        for v in node:
            yield from _step_lists(v)


def _body(procedure):
    return procedure.get("do", []) if isinstance(procedure, dict) and "do" in procedure else procedure


def _reads(steps, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", yaml.safe_dump(steps, allow_unicode=True)) is not None


def _arguments_through_globals(data: dict) -> set:
    """The global variables set only just before a `call` (nothing but logs between) of a
    procedure that reads them: arguments in disguise."""
    globals_, procedures = set(data.get("variables") or {}), data.get("procedures") or {}
    before_call, elsewhere = {}, set()
    for steps in _step_lists(data):
        for i, step in enumerate(steps):
            if not (isinstance(step, dict) and isinstance(step.get("set"), dict)):
                continue
            rest = [s for s in steps[i + 1:] if not (isinstance(s, dict) and "log" in s)]
            called = rest[0].get("call") if rest and isinstance(rest[0], dict) else None
            for name in set(step["set"]) & globals_:
                if called in procedures and _reads(_body(procedures[called]), name):
                    before_call.setdefault(name, set()).add(called)
                else:
                    elsewhere.add(name)
    return set(before_call) - elsewhere


@pytest.mark.parametrize("game", GAMES)
def test_no_line_of_a_shipped_ruleset_is_longer_than_200_characters(game):
    long = [(n, len(line)) for n, line in enumerate(_text(game).split("\n"), 1) if len(line) > LONGEST_LINE]
    assert long == [], f"{game}: lines (number, length) over {LONGEST_LINE} characters"


@pytest.mark.parametrize("game", GAMES)
def test_no_procedure_of_a_shipped_ruleset_takes_its_arguments_through_global_variables(game):
    assert _arguments_through_globals(_data(game)) == set()


def test_an_argument_set_in_a_global_just_before_a_call_is_found():
    """The check above finds the pattern it forbids (and not a variable the rules keep)."""
    data = yaml.safe_load("""
variables: {payer: {type: player, initial: null}, pot: 0}
procedures:
  pay: [add: {payer.lives: -1, pot: 1}]
flow:
  round:
    - set: {payer: current, pot: 0}
    - log: "{payer} pays"
    - call: pay
    - set: {pot: 2}
""")
    assert _arguments_through_globals(data) == {"payer"}


@pytest.mark.parametrize("game", GAMES)
def test_a_phases_then_holds_at_most_one_condition(game):
    phases = (_data(game).get("flow") or {}).get("phases") or {}
    for name, phase in phases.items():
        then = phase.get("then")
        assert not isinstance(then, str) or len(re.findall(r"\bif\b", then)) <= 1, \
            f"{game}: the `then` of phase {name} is a chain of conditions: give the choice a function"


@pytest.mark.parametrize("game", GAMES)
def test_every_text_of_a_shipped_catalogue_is_said(game):
    said = set(re.findall(r"\bsay: (\w+)", _text(game)))
    assert set(_data(game).get("texts") or {}) <= said
