"""Rulesets written for an earlier release keep working (docs/language.md, "Compatibility").

tests/compat/<date>-<commit>-<what>/ holds the shipped rulesets, scenarios and house rules
(overlays) as they were at earlier points of the history (`git archive COMMIT` of rulesets/
and examples/, laid out as they were, so that the paths between them still hold; see
tests/compat/README.md).  Each must still validate (warnings allowed: what the checker of
today cannot prove, it warns of) and play random games to the end with the current engine.

No file of the corpus uses a feature that has since been removed: every one validates
with no error (`test_every_file_of_the_corpus_validates`).  A feature removed later must
give such a file one problem saying how to update it, and that file and message are then
listed here.
"""
from __future__ import annotations

import hashlib
import io
import pathlib
import re

import pytest

from interpreter import load_program
from interpreter.cli import run
from interpreter.errors import errors_only
from interpreter.playing.agents import RandomAgent
from interpreter.authoring.scenario import is_scenario
from interpreter.playing.table import play
from interpreter.authoring.validation import check_file
from interpreter.source.loader import load_file

CORPUS = pathlib.Path(__file__).parent / "compat"
POINTS = sorted(p for p in CORPUS.iterdir() if p.is_dir())
BEFORE_NULLS = CORPUS / "2026-11-30-dc209d3-before-the-null-checker"
FILES = sorted(p for point in POINTS for p in point.rglob("*.yaml"))


def _rules(paths) -> list:
    """The rulesets and overlays among `paths`, by where they lie (read at collection: cheap)."""
    return [p for p in paths if p.parent.name == "rulesets" or p.parent.name == "house_rules"
            and not p.stem.endswith("_scenario")]


def _distinct(paths) -> list:
    """One of each ruleset or overlay that reads the same as another point's, with its base."""
    seen, out = set(), []
    for p in paths:
        text = p.read_bytes()
        base = re.search(rb"^extends: *(\S+)", text, re.M)
        base = p.parent / base.group(1).decode() if base else None
        key = hashlib.sha256(text + (base.read_bytes() if base and base.is_file() else b"")).hexdigest()
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


@pytest.mark.slow
def test_the_rulesets_and_house_rules_are_told_from_the_scenarios_by_where_they_lie():
    for path in FILES:
        assert (path in _rules(FILES)) == (not is_scenario(load_file(str(path))[0])), path


def _played_to_the_end(path, seed: int) -> bool:
    program = load_program(str(path))
    n = program.player_count(None)
    return play(program, [RandomAgent(seed * 10 + i) for i in range(n)], seed=seed, log=False).over


def test_the_corpus_holds_several_points_of_the_history_each_with_its_rulesets():
    assert len(POINTS) >= 4
    for point in POINTS:
        assert list((point / "rulesets").glob("*.yaml")), point.name
    assert BEFORE_NULLS in POINTS
    assert any((p / "examples" / "house_rules").is_dir() for p in POINTS)       # overlays
    assert any((p / "examples" / "scenarios").is_dir() for p in POINTS)         # scenarios


def test_rulesets_written_before_the_null_checker_validate_with_warnings_only():
    """What the null checker of today cannot prove about them is a warning, never an error."""
    for path in sorted((BEFORE_NULLS / "rulesets").glob("*.yaml")):
        problems = check_file(str(path))
        assert problems and errors_only(problems) == [], path.name
        assert all("may be null here" in p.message and p.hint for p in problems), path.name


def test_validate_passes_them_and_strict_holds_them_to_the_null_checker():
    path = str(BEFORE_NULLS / "rulesets" / "gnav2.yaml")
    out = io.StringIO()
    assert run(["validate", path], stdout=out) == 0
    assert f"{path}:115:12: warning: 'top(discard)' may be null here" in out.getvalue()
    assert out.getvalue().splitlines()[-1] == f"{path}: ok, with 1 warning (--strict counts them as errors)"
    out = io.StringIO()
    assert run(["validate", "--strict", path], stdout=out) == 1
    assert f"{path}:115:12: 'top(discard)' may be null here" in out.getvalue()


def test_rulesets_written_before_the_null_checker_play_to_the_end():
    for path in sorted((BEFORE_NULLS / "rulesets").glob("*.yaml")):
        assert _played_to_the_end(path, 0), path.name


@pytest.mark.parametrize("command", [["--seed", "1", "--json"], ["simulate", "--games", "2"],
                                     ["compare", "--games", "2", "--option", "wild_card_destination=captured"]])
def test_play_simulate_and_compare_say_once_on_stderr_that_a_ruleset_has_warnings(command):
    """The games play; only the ruleset's author can act on them: one line, where --json is not."""
    path = str(BEFORE_NULLS / "rulesets" / "gnav2.yaml")
    out, err = io.StringIO(), io.StringIO()
    args = [path, *command] if command[0].startswith("--") else [command[0], path, *command[1:]]
    assert run(args, stdout=out, stderr=err) == 0, err.getvalue()
    assert err.getvalue().splitlines()[0] == (
        f"{path}: warning: 1 value the checker cannot show is never null (the game stops there if one is); "
        f"'interpret validate {path}' lists them")
    assert err.getvalue().count("warning") == 1 and "warning" not in out.getvalue()


@pytest.mark.slow
def test_the_shipped_rulesets_house_rules_and_scenarios_validate_under_strict():
    """What ships is held to the checker's proof (tests/test_architecture.py holds the
    rulesets to it in the default run)."""
    root = CORPUS.parent.parent
    paths = [str(p) for p in sorted(root.glob("rulesets/*.yaml")) + sorted(root.glob("examples/*/*.yaml"))]
    out = io.StringIO()
    assert run(["validate", "--strict", *paths], stdout=out) == 0, out.getvalue()
    assert out.getvalue().splitlines() == [f"{p}: ok" for p in paths]


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_file_of_the_corpus_validates(path):
    """Rulesets, overlays and scenarios: no error (warnings allowed)."""
    assert errors_only(check_file(str(path))) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", _distinct(_rules(FILES)), ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_ruleset_and_house_rule_of_the_corpus_plays_random_games_to_the_end(path):
    for seed in range(2):
        assert _played_to_the_end(path, seed), f"{path.name}, seed {seed}"
