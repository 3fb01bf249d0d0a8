"""Hostile expressions: every one ends with a clean, positioned error, quickly.

Load-time cases (bad escapes, too large, too deep, numbers too large) are in
tests/broken/6*.yaml with their golden messages; here are the cases that need a game
to run (nulls, overflow, the work budget), the time bounds, and a fuzz test of the
expression compiler fed random and mutated expression texts.
"""
from __future__ import annotations

import functools
import io
import itertools
import pathlib
import re
import time

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import fuzz_examples, messages
from interpreter import load_program, new_game
from interpreter.cli import run
from interpreter.errors import RulesFault
from interpreter.lang.syntax import ExprError, parse
from interpreter.pipeline import compile_expression
from interpreter.check.expressions import free_names
from interpreter.lang.types import CARD, NUM, PLAYER, list_of
from interpreter.limits import MAX_EXPR_LENGTH, MAX_WORK

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Ninety-nine cut down to six cards: two each are dealt, two stay in the stock.
BASE = """\
name: hostile
players: 2
deck:
  product:
    suit:
      - {id: C, symbol: "♣"}
      - {id: D, symbol: "♦"}
    rank:
      - {id: A, value: 1}
      - {id: "2", value: 2}
      - {id: "3", value: 3}
  id: "{rank}{suit}"
  display: "{rank}{symbol}"
  zone: stock
zones:
  stock: {visibility: hidden}
  pile: {visibility: public}
  hand: {per_player: true, visibility: owner}
variables:
  total: 0
  last: {type: card, initial: null}
  winner: {type: player, initial: null}
FUNCTIONS
flow:
  round:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: DEAL}
    - turns:
        until: "count(active) <= 1 or total > 5"
        do:
          - choose: current.hand
            as: card
            label: "play {card}"
          - move: {card: card, from: current.hand, to: pile}
          - add: {total: card.value}
          - STEP
          - if: "total > 5"
            then: [eliminate: current, end_turn]
result:
  winners: active
"""


def ruleset(tmp_path, step='log: "{total}"', functions="", deal=2) -> str:
    text = BASE.replace("STEP", step).replace("FUNCTIONS", functions).replace("DEAL", str(deal))
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def interpret(*args, limit=30.0):
    """(exit code, stdout, stderr, seconds) of `interpret ARGS`."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    code = run(list(args), stdout=out, stderr=err)
    seconds = time.perf_counter() - start
    assert seconds < limit, f"took {seconds:.1f} s"
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue(), seconds


def rules_error(path) -> str:
    """The one rules error of playing `path`, checked to be `file:line:col: rules error ...`.

    A step `log: "{E}"` is played as `if: "text(E) == ''"`: a text of the account that the
    rules cannot compute is shown as such and does not stop the game (so that a game plays
    the same with or without its account), but a condition does."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    text = re.sub(r'log: "\{(.*)\}"', lambda m: 'if: "text(' + m.group(1) + ") == ''\"", text)
    pathlib.Path(path).write_text(text, encoding="utf-8")
    code, out, err, _ = interpret(path, "--seed", "1")
    assert code == 1, out + err
    line = messages(err).strip().splitlines()[-1]
    assert re.match(r"interpret: .*hostile\.yaml:\d+:\d+: rules error while running this step: ", line), line
    return line


def test_the_base_ruleset_plays(tmp_path):
    code, out, err, _ = interpret(ruleset(tmp_path), "--seed", "1")
    assert code == 0, err


# -- nulls ---------------------------------------------------------------------------------
# The checker warns of a value that may be null and is not tested (tests/test_null_type.py; an
# error under --strict), and the run time stops the game where one is null; what it cannot see
# at all is a test the steps after it outdate (`if: count(stock) > 0` then the stock moved
# away), or a function whose first call gave a value that is never null and a later one null.
EMPTIED = 'if: "count(stock) > 0"\n            then: [move: {from: stock, to: pile}, STEP]'


def test_top_of_an_empty_stock_is_a_clear_null(tmp_path):
    line = rules_error(ruleset(tmp_path, EMPTIED.replace("STEP", 'log: "{top(stock).value}"')))
    assert line.endswith("'top(stock)' is null here (top of an empty zone?), so '.value' has no value")


def test_top_of_a_stock_that_may_be_empty_is_warned_of_at_load_time_and_refused_under_strict(tmp_path):
    path = ruleset(tmp_path, 'log: "{top(stock).value}"', deal=3)
    code, out, err, _ = interpret("validate", path)
    assert code == 0 and "warning: 'top(stock)' may be null here (top of an empty zone)" in out
    assert "hint: write `top(stock)?.value ?? 0`, or test `top(stock) != null` first" in out
    assert out.splitlines()[-1] == f"{path}: ok, with 1 warning (--strict counts them as errors)"
    code, strict, err, _ = interpret("validate", "--strict", path)
    assert code == 1 and "hostile.yaml:" in strict and "warning" not in strict
    assert "'top(stock)' may be null here (top of an empty zone)" in strict


def test_a_null_the_checker_warned_of_stops_the_game_with_its_position(tmp_path):
    """The run time is the net under the warning: an InterpreterError at the step, not a traceback."""
    line = rules_error(ruleset(tmp_path, 'log: "{top(stock).value}"', deal=3))
    assert line.endswith("'top(stock)' is null here (top of an empty zone?), so '.value' has no value")


@pytest.mark.parametrize("step, message", [
    ('log: "{last.value}"', "'last' is null here (not set yet?), so '.value' has no value"),
    ("if: \"last.suit == 'C'\"\n            then: [end_turn]", "'last' is null here (not set yet?), so '.suit' has no value"),
    ('log: "{winner.hand}"', "'winner' is null here (not set yet?), so '.hand' has no value"),
    ('add: {total: "seat(current) - seat(current)"}\n          - add: {total: "seat(first(players, p => p.index > 5))"}',
     "'first(players, p => p.index > 5)' is null here (no element matched?), so '.seat' has no value"),
    ('add: {total: "after(current) - after(current)"}\n          - add: {total: "after(players[9])"}',
     "'players[9].index' is null here (past the end of the list?), so '+' has nothing to work on"),
    ('add: {total: "count(zone(\'hand\', winner))"}', "'winner' is null here (not set yet?), so it has no zone 'hand'"),
])
def test_nulls_name_the_expression_that_was_null(tmp_path, step, message):
    functions = ("functions:\n  seat: {params: [p], expr: \"p.seat\"}\n"       # first called with current
                 "  after: {params: [p], expr: \"p.index + 1\"}\n")
    assert rules_error(ruleset(tmp_path, step, functions)).endswith(message)


@pytest.mark.parametrize("value, message", [
    ("first(players, p => p.index > 5).seat", "'first(players, p => p.index > 5)' may be null here (no element matched)"),
    ("players[9].index + 1", "'players[9]' may be null here (past the end of the list)"),
])
def test_the_same_nulls_untested_are_warned_of_at_load_time(tmp_path, value, message):
    path = ruleset(tmp_path, f'add: {{total: "{value}"}}')
    code, out, err, _ = interpret("validate", path)
    assert code == 0 and f"warning: {message}" in out
    assert interpret("validate", "--strict", path)[0] == 1


def test_a_null_argument_is_named_through_the_function(tmp_path):
    functions = "functions:\n  worth: {params: [c], expr: \"c.value * 2\"}\n"
    line = rules_error(ruleset(tmp_path, EMPTIED.replace("STEP", 'add: {total: "worth(top(stock))"}'), functions))
    assert line.endswith("'top(stock)' is null here (top of an empty zone?), so '.value' has no value")


# -- numbers -------------------------------------------------------------------------------
def test_numbers_beyond_floats_are_rules_errors(tmp_path):
    functions = "functions:\n  sq0: {params: [x], expr: \"x\"}\n" + "".join(
        f"  sq{i}: {{params: [x], expr: \"sq{i - 1}(x) * sq{i - 1}(x)\"}}\n" for i in range(1, 9))
    line = rules_error(ruleset(tmp_path, 'log: "{sq8(999999999999999999 + total) / 3}"', functions))
    assert "goes beyond the numbers the rules can compute with (about 1e308)" in line


def test_big_number_literals_are_refused_at_load_time(tmp_path):
    code, out, err, _ = interpret("validate", ruleset(tmp_path, 'add: {total: "99999999999999999999999 // 7"}'))
    assert code == 1 and "is too large" in out


# -- work ----------------------------------------------------------------------------------
def test_nested_functions_of_each_element_stop_at_the_work_budget(tmp_path):
    e = "c30.value > 0"
    for i in range(30, 0, -1):      # 30 nested: 6**30 visits without a budget, for ever
        e = f"all(all_cards, c{i} => {e})"
    line = rules_error(ruleset(tmp_path, f'log: "{{{e}}}"'))
    assert line.endswith(f"the rules did more than {MAX_WORK:,} units of work between two decisions "
                         "(elements visited by count, sum, filter, map, any, in, ...): "
                         "do functions of each element nest too deeply?")


def test_thirty_nested_counts_are_too_deep_to_load(tmp_path):
    e = "c30.value > 0"
    for i in range(30, 0, -1):
        e = f"count(all_cards, c{i} => {e}) > 0"
    code, out, err, _ = interpret("validate", ruleset(tmp_path, f'log: "{{{e}}}"'))
    assert code == 1 and "nested too deeply" in out


def test_lists_doubled_in_a_loop_stop_at_the_work_budget(tmp_path):
    functions = "functions:\n  d0: {params: [x], expr: \"x\"}\n" + "".join(
        f"  d{i}: {{params: [x], expr: \"d{i - 1}(x + x)\"}}\n" for i in range(1, 25))
    step = 'log: "{count(d24(all_cards))}"'     # 6 * 2**24 cards, built in one expression
    code, out, err, _ = interpret(ruleset(tmp_path, step, functions), "--seed", "1")
    assert code == 1 and "units of work" in err


def test_the_budget_is_per_run_not_per_game():
    program = load_program(str(ROOT / "rulesets" / "hearts2.yaml"))
    s = new_game(program, seed=3)
    assert 0 < s.work < MAX_WORK
    s.work = MAX_WORK            # as if the last run had spent it all
    from interpreter import apply
    apply(program, s, 0)         # the next run starts afresh
    assert s.work < MAX_WORK


# -- load time: quick, clear ---------------------------------------------------------------
def test_seven_functions_each_calling_the_previous_twice_validate_fast(tmp_path):
    functions = "functions:\n  f0: {params: [x], expr: \"x + count(all_cards, c => c.value > x)\"}\n" + "".join(
        f"  f{i}: {{params: [x], expr: \"f{i - 1}(x) + f{i - 1}(x + 1)\"}}\n" for i in range(1, 8))
    path = ruleset(tmp_path, 'log: "{f7(total)}"', functions)
    code, out, err, seconds = interpret("validate", path, limit=1.0)
    assert code == 0, out
    code, out, err, _ = interpret(path, "--seed", "1")
    assert code == 0, err


@pytest.mark.parametrize("calls", [1, 2, 3])
def test_forty_nested_functions_give_a_clear_error_quickly(tmp_path, calls):
    functions = "functions:\n  f0: {params: [x], expr: \"x + 1\"}\n" + "".join(
        f"  f{i}: {{params: [x], expr: \"{' + '.join([f'f{i - 1}(x)'] * calls)} + 1\"}}\n" for i in range(1, 41))
    code, out, err, _ = interpret("validate", ruleset(tmp_path, 'log: "{f40(total)}"', functions), limit=5.0)
    assert code == 1
    for line in messages(out).splitlines():
        assert re.match(r".*hostile\.yaml:\d+:\d+: expression is (nested too deeply|too large)", line), line


@pytest.mark.parametrize("text", ["{'\\\\x'}", "{'\\\\ud800'}", "\\ud800 alone", "{'\\\\U00110000'}"])
def test_strings_that_could_not_be_printed_are_load_time_errors(tmp_path, text):
    path = ruleset(tmp_path, f'log: "{text}"')
    code, out, err, _ = interpret("validate", path)
    assert code == 1 and re.match(r".*hostile\.yaml:\d+:\d+: .*(surrogate|hexadecimal|not a character)", out), out
    code, out, err, _ = interpret(path, "--seed", "1")
    assert code == 1 and "Traceback" not in err


# -- fuzz: random and mutated expression texts ---------------------------------------------
def _strings(node):
    if isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, str):
        yield node
        yield from re.findall(r"\{([^{}]+)\}", node)


_GUESSES = (CARD, PLAYER, NUM, list_of(CARD))


def _scope(compiler, text):
    """A scope of local names in which `text` compiles, or None."""
    try:
        names = sorted(free_names(parse(text)))
    except ExprError:
        return None
    local = [n for n in names if n not in compiler.global_vars and n not in compiler.shared_zones
             and n not in ("current", "players", "active", "num_players", "all_cards", "options")]
    if len(local) > 3:
        return None
    for types in itertools.product(_GUESSES, repeat=len(local)):
        scope = dict(zip(local, types))
        try:
            compile_expression(compiler, text, scope)
            return scope
        except ExprError:
            continue
    return None


@functools.lru_cache(maxsize=1)
def _corpus():
    """(ruleset, expression, scope) for every expression of the shipped rulesets."""
    out = []
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        program = load_program(str(path))
        compiler = program.symbols
        for text in sorted(set(_strings(yaml.safe_load(path.read_text(encoding="utf-8"))))):
            scope = _scope(compiler, text) if len(text) < 400 else None
            if scope is not None:
                out.append((program, text, scope))
    return out


TOKENS = ["(", ")", "[", "]", ",", ".", "=>", "==", "!=", "<", "<=", ">", ">=", " in ", " not in ", "+", "-", "*",
          "/", "//", "%", " and ", " or ", " not ", " if ", " else ", "true", "false", "null", "0", "1", "-1",
          "99", "2.5", "999999999999999999", "1" * 30, "'a'", "'\\x4'", "'\\ud800'", "'\\n'", "'\\q'", "\"é\"",
          "card", "c", "p", "x", "current", "players", "active", "all_cards", "num_players", "options",
          "total", "stock", "pile", "current.hand", "top(", "count(", "sum(", "min(", "max(", "filter(",
          "map(", "first(", "max_by(", "any(", "all(", "zone(", "player(", "clockwise(", "random(", "text(",
          "abs(", "len(", ".value", ".suit", ".top", ".size", ".left", ".index", "c => c.value", "p => p.index"]
# Replacements that keep an expression well formed more often than not.
SWAPS = ["null", "0", "-1", "999999999999999999", "2.5", "[]", "top(all_cards)", "first(players, q => false)",
         "players[99]", "current", "current.left", "all_cards", "[null]", "'\\u00e9'", "1 / 3", "null.value"]
NAME_OR_NUMBER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+(\.\d+)?")


@st.composite
def expression_texts(draw):
    """(program, scope, text): tokens at random, or an expression of a ruleset mutated."""
    program, text, scope = draw(st.sampled_from(_corpus()))
    if draw(st.integers(0, 4)) == 0:
        return program, scope, "".join(draw(st.lists(st.sampled_from(TOKENS), max_size=30)))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["swap", "swap", "insert", "delete", "repeat", "wrap", "call"]))
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        if action == "swap":
            atoms = list(NAME_OR_NUMBER.finditer(text))
            if atoms:
                m = atoms[draw(st.integers(0, len(atoms) - 1))]
                text = text[:m.start()] + draw(st.sampled_from(SWAPS)) + text[m.end():]
        elif action == "insert":
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
        elif action == "delete":
            text = text[:i] + text[j:]
        elif action == "repeat":
            text = text[:i] + text[i:j] * draw(st.integers(2, 40)) + text[j:]
        elif action == "wrap":
            depth = draw(st.integers(1, 80))
            text = "(" * depth + text + ")" * depth
        else:
            text = f"{draw(st.sampled_from(['count', 'sum', 'max', 'first', 'text', 'abs', 'player', 'top']))}({text})"
    return program, scope, text


@pytest.mark.fuzz
@settings(max_examples=fuzz_examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=expression_texts(), seed=st.integers(0, 5), nulls=st.booleans())
def test_random_and_mutated_expressions_raise_only_the_projects_errors(case, seed, nulls):
    program, scope, text = case
    try:
        c = compile_expression(program.symbols, text, scope)
    except ExprError as e:
        in_body = getattr(e, "function", None) is not None     # then at its place in that body
        assert e.message and 0 <= e.offset <= (MAX_EXPR_LENGTH if in_body else max(len(text), 1))
        return
    s = new_game(program, seed=seed, log=False)
    values = {CARD: 0, PLAYER: s.current or 0, NUM: 3, list_of(CARD): [0, 1]}
    locals_ = {name: None if nulls else values[t] for name, t in scope.items()}
    locals_["#memo"] = {}
    try:
        c.fn(s, locals_)
    except (RulesFault, ZeroDivisionError):
        pass        # RulesFault names the fault; engine.run positions both at the step
