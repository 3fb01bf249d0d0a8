"""The expression language, table-driven from expr_cases.yaml, plus its safety properties."""
from __future__ import annotations

import pathlib
from types import SimpleNamespace

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from interpreter.expr import ExprError, parse
from interpreter.expr_compile import (BOOL, NUM, STR, ExprCompiler, FunctionDef, Symbols)

CASES = yaml.safe_load((pathlib.Path(__file__).parent / "expr_cases.yaml").read_text(encoding="utf-8"))

# Three cards: 5♥ (1 point), Q♠ (13 points), 2♣ (0 points).
SYMBOLS = Symbols(
    options={"mode": "fast"},
    card_attrs={"id": (STR, ("5H", "QS", "2C")), "suit": (STR, ("H", "S", "C")),
                "points": (NUM, (1, 13, 0)), "value": (NUM, (5, 12, 2))},
    global_vars={"total": NUM, "flag": BOOL},
    player_vars={"score": NUM},
    shared_zones={"trick"}, player_zones={"hand"},
    functions={"double": FunctionDef("double", ["x"], parse("x * 2")),
               "loop": FunctionDef("loop", ["x"], parse("loop(x)"))},
    all_cards=(0, 1, 2))


def state():
    return SimpleNamespace(vars={"total": 5, "flag": False}, pvars={"score": [9, 4]},
                           zones={"trick": [0, 1], "hand": [[2], [0, 1]]},
                           current=1, out=[False, False], players=(0, 1), names=["Player 1", "Player 2"])


def evaluate(text):
    c = ExprCompiler(SYMBOLS).compile(text)
    return c.fn(state(), {})


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] or "<empty>" for c in CASES])
def test_expression(case):
    if "error" in case:
        with pytest.raises((ExprError, ZeroDivisionError)) as e:
            evaluate(case["expr"])
        assert case["error"] in str(e.value)
    else:
        assert evaluate(case["expr"]) == case["result"]


def test_constants_are_folded_at_compile_time():
    c = ExprCompiler(SYMBOLS).compile("1 + 2 if options.mode == 'fast' else 0")
    assert c.is_const and c.const == 3


def test_error_offsets_point_at_the_fault():
    with pytest.raises(ExprError) as e:
        ExprCompiler(SYMBOLS).compile("total + top(trick).pints")
    assert e.value.offset == len("total + top(trick).")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("abcdt_().,[]'=<>!+-*/%0123 ") + ["total", "trick", " if ", " else ",
                                                                     " and ", "count(", "=>", "card", "c"]),
                max_size=25).map("".join))
def test_arbitrary_text_raises_only_the_languages_own_error(text):
    try:
        c = ExprCompiler(SYMBOLS).compile(text)
    except ExprError:
        return
    try:
        c.fn(state(), {})
    except (ZeroDivisionError, TypeError):
        pass       # run-time faults are reported by the engine with the step's position
