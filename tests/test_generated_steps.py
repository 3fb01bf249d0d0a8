"""The generated-Python back end of expressions (interpreter/generated) against the closure back
end: the same value (or the same RulesFault) and the same work charged, for every expression
of the shipped rulesets on states of seeded games, and for the cases of expr_cases.yaml."""
from __future__ import annotations

import functools
import random
import time

import pytest

from interpreter import apply, new_game
from interpreter.errors import RulesFault
from interpreter.lang.expr_ir import draws_random
from interpreter.lang.types import CARD, NUM, PLAYER, list_of
from interpreter.limits import MAX_WORK
from interpreter.pipeline import compile_expression
from interpreter.generated.expressions import Source
from test_expr import CASES, SYMBOLS, state
from test_hostile_expr import _corpus

pytestmark = pytest.mark.filterwarnings("ignore")


def outcome(fn, s, l):
    """(value or error message, work charged) of fn on a fresh budget."""
    s.work = 0
    try:
        v = fn(s, l)
    except (RulesFault, ZeroDivisionError) as e:
        v = ("error", type(e).__name__, str(e))
    return v, s.work


# -- expr_cases.yaml -------------------------------------------------------------------
@pytest.mark.parametrize("case", [c for c in CASES if c.get("expr")], ids=lambda c: c["expr"])
def test_expression_cases_give_the_same_through_generated_python(case):
    try:
        node = compile_expression(SYMBOLS, case["expr"])
    except Exception:
        return          # a load-time error: no back end runs
    fast = Source(SYMBOLS).fn(node)
    assert outcome(fast, state(), {}) == outcome(node.fn, state(), {})
    if "result" in case:
        assert fast(state(), {}) == case["result"]


# -- the shipped rulesets --------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _states():
    """program -> states of seeded games after a few random decisions."""
    out = {}
    for program, _, _ in _corpus():
        if program.name in out:
            continue
        states = []
        for seed in range(3):
            s = new_game(program, seed=seed, log=False)
            pick = random.Random(seed)
            for decisions in range(30):
                if decisions in (0, 3, 12, 29):
                    states.append(s.copy())
                if s.pending is None:
                    break
                apply(program, s, pick.randrange(len(s.pending[1])))
        out[program.name] = states
    return out


def _locals(s, scope, nulls):
    hand = next((z for zs in s.zones.values() for z in (zs if zs and isinstance(zs[0], list) else [zs]) if z), [0, 1])
    values = {CARD: hand[0], PLAYER: s.current or 0, NUM: 3, list_of(CARD): list(hand)}
    return {name: None if nulls else values[t] for name, t in scope.items()}


def _groups():
    by = {}
    for program, text, scope in _corpus():
        by.setdefault(program.name, []).append((program, text, scope))
    return list(by.values())


@pytest.mark.parametrize("group", range(4))
def test_every_ruleset_expression_computes_the_same_on_played_states(group):
    groups = _groups()
    if group >= len(groups):
        pytest.skip("fewer rulesets")
    compared = 0
    for program, text, scope in groups[group]:
        node = compile_expression(program.symbols, text, scope)
        if draws_random(node):
            continue
        fast = Source(program.symbols).fn(node)
        for s in _states()[program.name]:
            for nulls in (False, True):
                l1, l2 = _locals(s, scope, nulls), _locals(s, scope, nulls)
                a = outcome(node.fn, s, l1)
                b = outcome(fast, s, l2)
                assert b == a, (text, fast.source)
                compared += 1
    assert compared > 50


def test_a_draw_of_random_is_the_closure_back_ends():
    node = compile_expression(SYMBOLS, "random(trick)")
    assert Source(SYMBOLS).fn(node) is not None and not hasattr(Source(SYMBOLS).fn(node), "source")


# -- how much faster ---------------------------------------------------------------------
HOT = {"hearts2": ["may_lead(current, card)", "may_follow(current, card)"], "gnav2": ["valid(card)"]}


def test_micro_benchmark(capsys):
    """100k evaluations of a few hot conditions by each back end (printed; -s shows it)."""
    rows = []
    for program, _, _ in _corpus():
        name = program.name
        for text in HOT.get(name, []):
            if any(r[0] == f"{name}: {text}" for r in rows):
                continue
            node = compile_expression(program.symbols, text, {"card": CARD})
            fast = Source(program.symbols).fn(node)
            s = _states()[program.name][1]
            l = _locals(s, {"card": CARD}, False)
            times = []
            for f in (node.fn, fast):
                start = time.perf_counter()
                for _ in range(100_000):
                    s.work = 0
                    f(s, l)
                times.append(time.perf_counter() - start)
            rows.append((f"{name}: {text}", *times))
    with capsys.disabled():
        for label, slow, quick in rows:
            print(f"\n{label}: closures {slow:.3f} s, generated {quick:.3f} s per 100k ({slow / quick:.2f}x)")


# -- a call made again with the same arguments ---------------------------------------------
def _repeating_symbols():
    from interpreter.lang.symbols import FunctionDef, Symbols
    from interpreter.lang.syntax import parse
    from test_expr import SYMBOLS as BASE
    return Symbols(card_attrs=BASE.card_attrs, global_vars={"total": NUM}, shared_zones={"trick"},
                   player_zones={"hand"}, all_cards=BASE.all_cards,
                   functions={"kept": FunctionDef("kept", ["z"], parse("filter(all_cards, c => c in z or c.points > total)")),
                              "pts": FunctionDef("pts", ["z"], parse("sum(kept(z), c => c.points)"))})


@pytest.mark.parametrize("text", [
    "pts(trick) + count(kept(trick)) + pts(trick)",          # the same call: computed once, charged thrice
    "count(kept(trick)) + count(kept(current.hand))",         # other arguments: computed each
    "sum(trick, c => count(kept([c])) + count(kept([c])))",  # an element's call: not kept across elements
    "kept(trick) + kept(trick)",                              # a list: each call gets its own
])
def test_a_call_made_again_gives_and_charges_what_computing_it_again_does(text):
    symbols = _repeating_symbols()
    node = compile_expression(symbols, text)
    fast = Source(symbols).fn(node)
    assert outcome(fast, state(), {}) == outcome(node.fn, state(), {})
    for limit in range(0, 40, 3):           # the work limit met in the same expression
        a, b = state(), state()
        a.work = b.work = MAX_WORK - limit
        assert _at_limit(fast, a) == _at_limit(node.fn, b)


def _at_limit(fn, s):
    try:
        return fn(s, {}), s.work
    except RulesFault as e:
        return str(e)


def test_a_call_made_again_is_computed_once():
    symbols = _repeating_symbols()
    node = compile_expression(symbols, "pts(trick) * 10 + pts(trick)")
    fast = Source(symbols).fn(node)
    assert "_again(s, _m[" in fast.source and fast(state(), {}) == node.fn(state(), {})
