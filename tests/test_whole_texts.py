"""Names and numbers are read as a whole (issue 25, item 12): a schema pattern matches the
whole text (Python's `$` also matches before a final newline), a seed is a whole number from
0, and a number a person writes is ASCII digits with an optional sign (Python's int() also
takes '1_0', Arabic-Indic digits and spaces around)."""
from __future__ import annotations

import io
import json

import pytest

from interpreter.check.options import free_value
from interpreter.check.schema import check
from interpreter.cli.main import run
from interpreter.authoring.validation import check_file
from interpreter.source.loader import load_text

from conftest import ruleset


def _problems(text, kind="ruleset"):
    data, source = load_text(text, "x.yaml")
    return check(data, source, kind)


def test_a_name_with_a_trailing_newline_is_not_a_name():
    good = ('name: mini\nplayers: 2\ndeck: {cards: [a], zone: stock}\nzones: {stock: {}}\n'
            'flow: {round: [end_game]}\nresult: {winners: "[]"}\n')
    assert not _problems(good)
    problems = _problems(good.replace("name: mini", 'name: "mini\\n"'))
    assert [p.line for p in problems] == [1] and "not a valid name" in problems[0].message


def test_a_variable_name_with_a_trailing_newline_is_refused():
    text = ('name: mini\nplayers: 2\ndeck: {cards: [a], zone: stock}\nzones: {stock: {}}\nvariables: {"x\\n": 0}\n'
            'flow: {round: [end_game]}\nresult: {winners: "[]"}\n')
    assert [p.line for p in _problems(text)] == [5]


def _record(tmp_path, **changes):
    rec = tmp_path / "game.json"
    code = run([ruleset("ninety_nine"), "--seed", "3", "--quiet", "--record", str(rec)],
               stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0
    data = json.loads(rec.read_text(encoding="utf-8"))
    data.update(changes)
    rec.write_text(json.dumps(data), encoding="utf-8")
    return rec


def test_a_record_with_a_negative_seed_is_refused_at_its_seed(tmp_path):
    assert check_file(str(_record(tmp_path))) == []
    problems = check_file(str(_record(tmp_path, seed=-5)))
    assert problems and all("seed" in p.message for p in problems)


@pytest.mark.parametrize("text", ["1_0", "\u0661\u0662", "\uff11", "0x10", "1e1", "2.0", "", "--3", "٣"])
def test_a_whole_number_is_written_with_ascii_digits(text):
    assert free_value("integer", text) is None


@pytest.mark.parametrize("text, value", [("10", 10), ("-3", -3), ("+4", 4), (" 7 ", 7)])
def test_whole_numbers_with_a_sign_are_read(text, value):
    assert free_value("integer", text) == value


@pytest.mark.parametrize("text", ["1_0.5", "\u0661.5", "inf", "nan", "1e400"])
def test_a_number_is_written_with_ascii_digits_a_point_and_an_exponent(text):
    assert free_value("number", text) is None


def test_an_option_written_with_an_underscore_is_refused_with_what_is_allowed():
    err = io.StringIO()
    code = run([ruleset("hearts2"), "--option", "target_score=1_0", "--quiet"], stdout=io.StringIO(), stderr=err)
    assert code == 2 and "must be a whole number from 1 to 10000, not '1_0'" in err.getvalue()


@pytest.mark.parametrize("argv", [["--seed", "1_0"], ["--seed", "\u0661\u0662"], ["--players", "٢"]])
def test_command_line_numbers_are_ascii_digits(argv):
    err = io.StringIO()
    code = run([ruleset("gnav")] + argv + ["--quiet"], stdout=io.StringIO(), stderr=err)
    assert code == 2 and "is not a whole number" in err.getvalue()


def test_simulate_counts_are_ascii_digits():
    err = io.StringIO()
    code = run(["simulate", ruleset("gnav2"), "--games", "1_0"], stdout=io.StringIO(), stderr=err)
    assert code == 2 and "is not a whole number" in err.getvalue()


def test_a_mistyped_argument_is_quoted_escaped():
    err = io.StringIO()
    code = run([ruleset("gnav"), "--seed", "\x1b]0;pwned\x07"], stdout=io.StringIO(), stderr=err)
    assert code == 2 and "\x1b" not in err.getvalue() and "\\x1b]0;pwned\\x07" in err.getvalue()
