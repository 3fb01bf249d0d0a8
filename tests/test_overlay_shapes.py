"""Whatever shape an overlay's entries take, combining it with its base answers with
problems at the overlay's lines, never a Python error (issue 25, item 11: a list or a
mapping where a step edit names an id raised TypeError)."""
from __future__ import annotations

import copy

import pytest
import yaml

from conftest import value_paths
from interpreter.errors import RulesetError
from interpreter.authoring.validation import check_file
from interpreter.source.loader import load_file
from interpreter.source.overlay import combine

EVERY_FORM = """
extends: hearts2
name: every_form
deck:
  attributes:
    points: "1 if card.heart else 0"
variables: {extra: 0}
set: {options.target_score.default: 60}
remove: [statistics.moons]
steps:
  - after: take_trick
    insert: [{log: "after"}]
  - before: opening
    insert: [{log: "before"}]
  - replace: trick
    insert: [{log: "replaced"}]
  - remove: take_trick
triggers:
  - on: round_end
    id: told
    do: [{log: "told"}]
"""
SHAPES = [["a", "b"], {"a": 1}, 7, None, True, "", "nope.nope"]


def _leaf_paths(data):
    return [p for p in value_paths(data) if p]


def _mutants(tmp_path, shape):
    """The overlay above, with one of its values at a time given `shape`, written to a file."""
    base = yaml.safe_load(EVERY_FORM)
    for path in _leaf_paths(base):
        data = copy.deepcopy(base)
        parent = data
        for p in path[:-1]:
            parent = parent[p]
        parent[path[-1]] = copy.deepcopy(shape)
        f = tmp_path / "house.yaml"
        f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        yield str(f)


@pytest.mark.parametrize("shape", SHAPES, ids=[type(s).__name__ + str(i) for i, s in enumerate(SHAPES)])
def test_any_shape_anywhere_in_an_overlay_is_combined_or_reported_in_the_overlay(tmp_path, shape):
    for f in _mutants(tmp_path, shape):
        loaded, source = load_file(f)
        try:
            combine(loaded, source)
        except RulesetError as e:
            assert e.problems and all(p.file == f and p.line for p in e.problems)


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES, ids=[type(s).__name__ + str(i) for i, s in enumerate(SHAPES)])
def test_any_shape_anywhere_in_an_overlay_validates_to_problems_not_a_crash(tmp_path, shape):
    for f in _mutants(tmp_path, shape):
        for p in check_file(f):
            assert p.message and p.file and p.line, p


@pytest.mark.parametrize("kind", ["after", "before", "replace", "remove"])
@pytest.mark.parametrize("target", [["trick"], {"id": "trick"}])
def test_a_step_edit_whose_target_is_not_a_name_is_reported_at_its_line(tmp_path, kind, target):
    insert = "" if kind == "remove" else ', insert: [{log: "x"}]'
    f = tmp_path / "house.yaml"
    f.write_text(f"extends: hearts2\nname: h\nsteps:\n  - {{{kind}: {yaml.safe_dump(target, default_flow_style=True).strip()}"
                 f"{insert}}}\n", encoding="utf-8")
    problems = check_file(str(f))
    assert [(p.file, p.line) for p in problems] == [(str(f), 4)]
    assert f"{kind}: name the step by its id" in problems[0].message
