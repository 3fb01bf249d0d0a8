"""One error type: every error of ours derives from InterpreterError, every position is a
Problem, and format_problem is the one place a Problem becomes text (caret, span, hint)."""
from __future__ import annotations

import ast
import importlib
import inspect
import io
import pathlib
import pkgutil
import re
import sys

import pytest

import interpreter
from interpreter.cli import run
from interpreter.errors import (InterpreterError, Problem, RulesFault, RulesetError, UsageError, brief,
                                format_problem)
from interpreter.lang.syntax import ExprError, parse
from interpreter.playing.records import Divergence
from interpreter.pipeline import load_program_text
from interpreter.runtime.engine import new_game
from interpreter.source.loader import FileRefused, load_text

PACKAGE = pathlib.Path(interpreter.__file__).parent


# -- the printed form ---------------------------------------------------------------------

def test_without_end_or_hint_the_form_is_the_one_caret_as_before():
    p = Problem("f.yaml", 3, 7, "unknown name 'x'", "  a: b + x")
    assert format_problem(p) == "f.yaml:3:7: unknown name 'x'\n      a: b + x\n          ^"
    assert str(p) == format_problem(p)
    assert format_problem(Problem("f.yaml", 0, 0, "cannot read file")) == "f.yaml: cannot read file"
    assert format_problem(Problem("f.yaml", 2, 1, "no source line")) == "f.yaml:2:1: no source line"


def test_a_span_is_underlined_from_its_column_to_its_end():
    p = Problem("f.yaml", 1, 9, "'+' needs numbers", 'where: "card.value + 1"', end=19)
    caret = format_problem(p).splitlines()[2]
    assert caret == "    " + " " * 8 + "^" + "~" * 9
    assert 'where: "card.value + 1"'[8:18] == "card.value"      # exactly the span


def test_a_span_of_one_character_or_a_wrong_end_is_a_plain_caret():
    for end in (None, 11, 10, 3):
        assert format_problem(Problem("f", 1, 10, "m", "0123456789abcdef", end=end)).endswith("\n             ^")


def test_a_span_is_cut_at_the_end_of_the_line_and_counts_escaped_characters():
    assert format_problem(Problem("f", 1, 3, "m", "ab cd", end=40)).splitlines()[2] == "      ^~~"
    shown = format_problem(Problem("f", 1, 1, "m", "a\x01b", end=4)).splitlines()
    assert shown[1] == "    a\\x01b" and shown[2] == "    ^~~~~~"


def test_a_hint_is_its_own_line_after_the_caret():
    p = Problem("f.yaml", 2, 3, "unknown zone 'hnad'", "  hnad: x", end=7, hint="zones are declared under 'zones'")
    assert format_problem(p).splitlines() == ["f.yaml:2:3: unknown zone 'hnad'", "      hnad: x", "      ^~~~",
                                              "    hint: zones are declared under 'zones'"]
    assert format_problem(Problem("f.yaml", 0, 0, "m", hint="h\nx")) == "f.yaml: m\n    hint: h\\nx"


def test_a_warning_is_formatted_in_the_same_place_and_says_it_is_one():
    p = Problem("f.yaml", 4, 9, "'top(pile)' may be null here", '  add: "top(pile).value"', end=18,
                hint="write `top(pile)?.value ?? 0`, or test `top(pile) != null` first", severity="warning")
    assert p.is_warning and not Problem("f.yaml", 1, 1, "m").is_warning
    assert format_problem(p).splitlines() == [
        "f.yaml:4:9: warning: 'top(pile)' may be null here", '      add: "top(pile).value"', "            ^~~~~~~~~",
        "    hint: write `top(pile)?.value ?? 0`, or test `top(pile) != null` first"]
    assert format_problem(Problem("f.yaml", 0, 0, "m", severity="warning")) == "f.yaml: warning: m"


def test_end_hint_and_path_do_not_make_two_problems_differ():
    a = Problem("f", 1, 2, "m", "src", end=5, hint="h", path=("flow", 0))
    b = Problem("f", 1, 2, "m")
    assert a == b and len(RulesetError([a, b]).problems) == 1


def test_a_problem_knows_the_path_it_was_reported_at():
    _, source = load_text("a:\n  b: [1, 'x + ]']\n", "f.yaml")
    p = source.problem(["a", "b", 1], "bad", offset=4, end=5)
    assert (p.path, p.line, p.col, p.end) == (("a", "b", 1), 2, 15, None)     # one character: no span
    p = source.problem(("a", "b", 1), "bad", offset=0, end=3)
    assert (p.line, p.col, p.end) == (2, 11, 14)                   # inside the quotes: x + and the space
    assert format_problem(p).splitlines()[2] == "    " + " " * 10 + "^~~"


def test_an_expression_syntax_error_knows_where_the_bad_token_ends():
    with pytest.raises(ExprError) as e:
        parse("a + + bcd")
    assert (e.value.offset, e.value.end) == (4, 5)
    with pytest.raises(ExprError) as e:
        parse("count(x) abc")
    assert (e.value.offset, e.value.end) == (9, 12)
    with pytest.raises(ExprError) as e:
        parse("1 +")
    assert e.value.end is None          # the text ended: nothing to underline


def test_a_scenario_expression_error_is_underlined(tmp_path):
    rulesets = pathlib.Path(__file__).resolve().parent.parent / "rulesets"
    path = tmp_path / "s.yaml"
    path.write_text(f"name: t\nruleset: {rulesets / 'ninety_nine.yaml'}\nexpect:\n"
                    f"  - that: [\"total == 1 abc\"]\n", encoding="utf-8")
    out = io.StringIO()
    assert run(["scenario", str(path)], stdout=out, stderr=out) == 1
    assert out.getvalue().splitlines()[1:] == ['      - that: ["total == 1 abc"]', "                           ^~~"]


# -- one base -----------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [RulesetError, RulesFault, UsageError, ExprError, Divergence, FileRefused])
def test_every_error_class_derives_from_interpreter_error(cls):
    assert issubclass(cls, InterpreterError)


EXTRAS = {"numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "ray", "matplotlib", "aiohttp", "asyncpg"}


def _modules():
    """A module that needs an optional extra which is not installed is left out here; the run
    with the extras (CI installs them all after the README's plain run) checks it."""
    for info in pkgutil.walk_packages([str(PACKAGE)], "interpreter."):
        try:
            yield importlib.import_module(info.name)
        except ImportError as missing:
            if _missing_package(missing) not in EXTRAS:
                raise


def _missing_package(error: BaseException | None) -> str:
    """The top-level package an ImportError (or the one it was raised from) could not find."""
    while error is not None:
        if isinstance(error, ImportError) and error.name:
            return error.name.split(".")[0]
        error = error.__cause__
    return ""


@pytest.mark.extras
def test_every_exception_the_package_defines_is_an_interpreter_error():
    """Only private helpers (a class named _X, never seen outside its module) may stand apart,
    and an interruption that carries what was done (a KeyboardInterrupt: not an error)."""
    found = []
    for module in _modules():
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == module.__name__:
                found.append(obj)
                if not name.startswith("_") and not issubclass(obj, KeyboardInterrupt):
                    assert issubclass(obj, InterpreterError), f"{module.__name__}.{name}"
    assert {RulesFault, ExprError, Divergence, FileRefused} <= set(found)


def test_expression_errors_keep_their_attributes():
    e = ExprError("bad", 3, wrap=False)
    assert (e.message, e.offset, e.wrap, e.end, str(e)) == ("bad", 3, False, None, "bad")


# -- run-time errors are the same objects -------------------------------------------------

RULESET = """name: faults
players: 2
deck:
  cards: [{id: a}, {id: b}]
  zone: stock
zones:
  stock: {visibility: hidden}
variables:
  x: 2
flow:
  round:
    - while: "true"
      do:
        - set: {x: "x * x"}
result:
  winners: "[]"
"""


def test_a_run_time_rules_error_has_a_problem_at_the_step_in_the_ruleset():
    program = load_program_text(RULESET, "faults.yaml")
    with pytest.raises(RulesFault) as caught:
        new_game(program, seed=1)
    e = caught.value
    p = e.problem
    assert isinstance(p, Problem)
    assert (p.file, p.line) == ("faults.yaml", 14) and p.col >= 11
    assert p.source == '        - set: {x: "x * x"}'
    assert p.message.startswith("rules error while running this step: a number reached the limit")
    assert e.message == p.message
    assert str(e) == format_problem(p)
    head, source, caret = str(e).splitlines()
    assert head.startswith(f"faults.yaml:14:{p.col}: rules error while running this step: ")
    assert source == "    " + p.source and caret == "    " + " " * (p.col - 1) + "^"
    assert brief(e) == head                        # inside another message: one line
    assert e.state is not None                     # the account up to the error is kept


def test_a_rules_error_before_the_engine_places_it_is_its_message():
    e = RulesFault("no decision is pending")
    assert (e.problem, e.message, str(e), brief(e)) == (None, "no decision is pending",) + ("no decision is pending",) * 2


def test_the_cli_prints_every_error_of_ours(tmp_path, monkeypatch):
    main = sys.modules["interpreter.cli.main"]
    path = tmp_path / "r.yaml"
    path.write_text(RULESET, encoding="utf-8")
    for error, code, printed in [(Divergence("x"), 1, "interpret: x\n"), (ExprError("y"), 1, "interpret: y\n"),
                                 (FileRefused("z"), 1, "interpret: z\n"), (UsageError("u"), 2, "interpret: error: u\n")]:
        def fail(*args, error=error):
            raise error
        monkeypatch.setattr(main, "_options", fail)
        err = io.StringIO()
        assert run(["options", str(path)], stdout=io.StringIO(), stderr=err) == code
        assert err.getvalue() == printed


# -- format_problem is the only formatter -------------------------------------------------

def _sources():
    for file in sorted(PACKAGE.rglob("*.py")):
        if file.name != "errors.py":
            yield file, file.read_text(encoding="utf-8")


def test_no_module_but_errors_builds_a_position_by_hand():
    """No f-string of the form '{file}:{line}:{col}' or '{file}:{line}: ...' outside errors.py,
    and no caret drawn under a source line: positions are Problems, formatted in one place."""
    position = re.compile(r"\{[^{}]+\}:\{[^{}]+\}(:|$)")
    for file, text in _sources():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.JoinedStr):
                shape = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
                assert not position.search(shape.replace("{}", "{x}")), f"{file}:{node.lineno}: {ast.unparse(node)}"
                assert not re.search(r"\{\}\^|\^\s*$", shape), f"{file}:{node.lineno}: a caret drawn by hand"
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value.strip() not in ("^", "^~"), f"{file}:{node.lineno}: a caret drawn by hand"


def test_the_position_check_would_see_a_hand_made_position():
    position = re.compile(r"\{[^{}]+\}:\{[^{}]+\}(:|$)")
    node = ast.parse('f"{path}:{line}:{col}: {message}"').body[0].value
    shape = "".join(v.value if isinstance(v, ast.Constant) else "{x}" for v in node.values)
    assert position.search(shape)
