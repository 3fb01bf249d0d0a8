"""The expression language, table-driven from expr_cases.yaml, plus its safety properties."""
from __future__ import annotations

import pathlib
import time
from types import SimpleNamespace

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from interpreter.errors import RulesFault
from interpreter.lang.syntax import ExprError, parse
from interpreter.pipeline import compile_expression
from interpreter.closures.expressions import Closures
from interpreter.check.expressions import ExprChecker
from interpreter.lang.symbols import FunctionDef, Symbols
from interpreter.lang.types import BOOL, NUM, STR
from interpreter.limits import MAX_EXPR_NODES, MAX_WORK

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
                           current=1, out=[False, False], players=(0, 1), names=["Player 1", "Player 2"],
                           work=0)


def evaluate(text, strict=False):
    c = compile_expression(SYMBOLS, text, strict=strict)
    return c.fn(state(), {})


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] or "<empty>" for c in CASES])
def test_expression(case):
    if "error" in case:             # a null the checker cannot rule out: an error under --strict
        with pytest.raises((ExprError, ZeroDivisionError, RulesFault)) as e:
            evaluate(case["expr"], strict=True)
        assert case["error"] in str(e.value)
    else:
        assert evaluate(case["expr"]) == case["result"]


def test_constants_are_folded_at_compile_time():
    c = compile_expression(SYMBOLS, "1 + 2 if options.mode == 'fast' else 0")
    assert c.is_const and c.const == 3


def test_error_offsets_point_at_the_fault():
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, "total + top(trick).pints")
    assert e.value.offset == len("total + top(trick).")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("abcdt_().,[]'=<>!+-*/%0123 ") + ["total", "trick", " if ", " else ",
                                                                     " and ", "count(", "=>", "card", "c"]),
                max_size=25).map("".join))
def test_arbitrary_text_raises_only_the_languages_own_error(text):
    try:
        c = compile_expression(SYMBOLS, text)
    except ExprError:
        return
    try:
        c.fn(state(), {})
    except (ZeroDivisionError, TypeError, RulesFault):
        pass       # run-time faults are reported by the engine with the step's position


# -- string literals -----------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    (r"'a\nb'", "a\nb"), (r"'\x41\u00e9\U0001F600'", "Aé😀"), (r"'it\'s'", "it's"), (r'"say \"hi\""', 'say "hi"'),
    (r"'back\\slash'", "back\\slash"), ("'é\\t'", "é\t"), ("'plain é'", "plain é")])
def test_string_escapes_are_decoded(text, value):
    assert evaluate(text) == value


@pytest.mark.parametrize("text, message, offset", [
    (r"'\x'", "needs 2 hexadecimal digits", 1), (r"'ab\xZZ'", "needs 2 hexadecimal digits", 3),
    (r"'\ud800'", "unpaired surrogate", 1), (r"'ok' + '\uDFFF'", "unpaired surrogate", 8),
    (r"'\U00110000'", "beyond U+10FFFF", 1), (r"'\q'", "unknown escape", 1), (r"'\0'", "unknown escape", 1),
    ("'\ud800'", "unpaired surrogate U+D800", 1)])
def test_bad_string_escapes_are_load_time_errors_at_the_backslash(text, message, offset):
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, text)
    assert message in e.value.message and e.value.offset == offset


# -- numbers -----------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["1000000000000000000", "1" + "0" * 30, "1" + "0" * 70 + ".5", "-" + "9" * 19])
def test_number_literals_are_bounded(text):
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, text)
    assert "too large" in e.value.message or "characters long" in e.value.message


def test_numbers_from_yaml_are_bounded_too():
    with pytest.raises(ExprError):
        compile_expression(SYMBOLS, float("inf"))
    assert compile_expression(SYMBOLS, 999999999999999999).const == 999999999999999999


# -- size and depth ------------------------------------------------------------------------
def chain_symbols(n, calls, body="x + 1"):
    """f0 = body; f1..fn each call the previous `calls` times."""
    functions = {"f0": FunctionDef("f0", ["x"], parse(body))}
    for i in range(1, n + 1):
        functions[f"f{i}"] = FunctionDef(f"f{i}", ["x"], parse(" + ".join([f"f{i - 1}(x)"] * calls)))
    return Symbols(global_vars={"total": NUM}, functions=functions)


def test_seven_functions_each_calling_the_previous_twice_compile_fast():
    start = time.perf_counter()
    c = compile_expression(chain_symbols(7, 2), "f7(total)")
    assert time.perf_counter() - start < 0.5
    assert c.fn(state(), {}) == 2 ** 7 * 6


def test_forty_nested_calls_compile():
    assert compile_expression(chain_symbols(40, 1), "f40(total)").fn(state(), {}) == 6


@pytest.mark.parametrize("n, calls", [(40, 2), (60, 1), (12, 4)])
def test_inlined_functions_stop_at_a_limit_not_at_the_memory(n, calls):
    start = time.perf_counter()
    with pytest.raises(ExprError) as e:
        compile_expression(chain_symbols(n, calls), f"total + f{n}(total)")
    assert time.perf_counter() - start < 1
    assert e.value.offset == len("total + ")           # at the call, not inside a body
    assert "nested too deeply" in e.value.message or f"more than {MAX_EXPR_NODES} parts" in e.value.message
    assert "in function" not in e.value.message


def test_deep_nesting_and_long_texts_are_errors_not_crashes():
    for text in ["-" * 3000 + "1", "[" * 1900 + "]" * 1900, "not " * 900 + "true", "(" * 1900 + "1" + ")" * 1900,
                 " + ".join(["1"] * 1999), "[" + ",".join(["1"] * 1999) + "]", "x => " * 700 + "1"]:
        try:
            compile_expression(SYMBOLS, text)
        except ExprError:
            pass
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, "1" + " + 1" * 1200)
    assert "longer than" in e.value.message


def test_a_mistake_in_a_body_is_reported_once_at_the_function():
    with pytest.raises(ExprError) as e:
        compile_expression(chain_symbols(6, 1, body="x.nope"), "f6(total)")
    assert e.value.function == "f0"
    assert e.value.message == "a number has no attributes (looking for 'nope')"
    assert e.value.offset == len("x.")


def test_sixty_functions_each_calling_the_previous_three_times_check_in_linear_time():
    functions = {"f0": FunctionDef("f0", ["x"], parse("x + 1"))}
    for i in range(1, 61):
        functions[f"f{i}"] = FunctionDef(f"f{i}", ["x"], parse(f"f{i - 1}(x) + f{i - 1}(x) + f{i - 1}(x)"))
    checker = ExprChecker(Symbols(global_vars={"total": NUM}, functions=functions))
    start = time.perf_counter()
    errors = checker.finish()
    assert time.perf_counter() - start < 0.5
    assert checker.functions["f1"].size == 2 + 3 * (2 + 3) and checker.functions["f2"].size == 2 + 3 * (2 + 17)
    assert "f5" not in errors and "f60" in errors
    assert all("too large" in e.message or "nested too deeply" in e.message for e in errors.values())


# -- run time: nulls, overflow, work -----------------------------------------------------
def compiled_as_tested(text, *parts, symbols=SYMBOLS):
    """`text` compiled as where the steps around it have tested each of `parts` (as the then-steps
    of `if: PART != null`): the checker lets it pass, and a null that the steps after the test
    brought about (the zone emptied since) is for the run time to find."""
    checker = ExprChecker(symbols)
    checker.given = frozenset(("value", part) for part in parts)
    node = checker.check(text)
    node.fn = Closures(symbols).fn(node)
    return node


def run_time_error(text, *parts, **vars_):
    s = state()
    s.vars.update(vars_)
    c = compiled_as_tested(text, *parts)
    with pytest.raises(RulesFault) as e:
        c.fn(s, {})
    return str(e.value)


def test_null_card_names_the_expression_and_why():
    s = state()
    s.zones["trick"] = []
    c = compiled_as_tested("top(trick).points + 1", "top(trick)")
    with pytest.raises(RulesFault) as e:
        c.fn(s, {})
    assert str(e.value) == "'top(trick)' is null here (top of an empty zone?), so '.points' has no value"


def test_a_null_card_used_untested_is_warned_of_at_load_time_and_refused_under_strict():
    [w] = compile_expression(SYMBOLS, "top(trick).points + 1").warnings
    assert (w.message, w.hint) == ("'top(trick)' may be null here (top of an empty zone)",
                                   "write `top(trick)?.points ?? 0`, or test `top(trick) != null` first")
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, "top(trick).points + 1", strict=True)
    assert e.value.message == w.message


@pytest.mark.parametrize("text, tested_part, message", [
    ("first(trick, c => c.points > 99).suit == 'H'", "first(trick, c => c.points > 99)",
     "'first(trick, c => c.points > 99)' is null here (no element matched?)"),
    ("first(players, p => p.score > 99).hand", "first(players, p => p.score > 99)", "so '.hand' has no value"),
    ("first(players, p => p.score > 99).score + 1", "first(players, p => p.score > 99)", "so '.score' has no value"),
    ("first(players, p => p.score > 99).left", "first(players, p => p.score > 99)", "so '.left' has no value"),
    ("players[5].name", "players[5]", "'players[5]' is null here (past the end of the list?)"),
    ("double(first(trick, c => false).points)", "first(trick, c => false)", "'first(trick, c => false)' is null here"),
    ("total < null", "null", "so '<' cannot compare it"),
    ("min([1, null])", None, "null for some element"),
    ("zone('hand', first(players, p => false))", "first(players, p => false)", "so it has no zone 'hand'"),
])
def test_nulls_at_run_time_are_rules_errors_naming_the_expression(text, tested_part, message):
    assert message in run_time_error(text, *[tested_part] * (tested_part is not None))
    if tested_part == "null":           # the literal null is refused when the rules load
        with pytest.raises(ExprError, match="null has no value"):
            compile_expression(SYMBOLS, text)
    elif tested_part is not None:       # untested, each is warned of when the rules load
        assert "may be null here" in compile_expression(SYMBOLS, text).warnings[0].message


def test_a_null_number_variable_stops_a_comparison_at_run_time():
    assert "'total' is null here (not set yet?), so '<' cannot compare it" in run_time_error("total < 3", total=None)


def test_a_parameter_is_shown_as_its_argument():
    symbols = Symbols(card_attrs=SYMBOLS.card_attrs, shared_zones={"trick"},
                      functions={"pts": FunctionDef("pts", ["c"], parse("c.points"))})
    s = state()
    s.zones["trick"] = []
    with pytest.raises(RulesFault) as e:
        compiled_as_tested("pts(top(trick))", "top(trick)", symbols=symbols).fn(s, {})
    assert "'top(trick)' is null here" in str(e.value)


def test_numbers_too_large_for_floats_are_rules_errors():
    sq = {f"sq{i}": FunctionDef(f"sq{i}", ["x"], parse(f"sq{i - 1}(x) * sq{i - 1}(x)" if i else "x")) for i in range(9)}
    symbols = Symbols(global_vars={"total": NUM}, functions=sq)
    for text in ["sq8(999999999999999999 + total) * 1.5", "sq8(999999999999999999 + total) / 3",
                 "1.5 / sq8(999999999999999999 + total)", "sum([sq8(999999999999999999 + total), 0.5])",
                 "player(sq8(99999999999999999.5 + total))"]:
        with pytest.raises(RulesFault) as e:
            compile_expression(symbols, text).fn(state(), {})
        assert "(about 1e308)" in str(e.value) or "not a finite number" in str(e.value)


def test_builtins_charge_the_elements_they_visit():
    s = state()
    c = compile_expression(SYMBOLS, "count(all_cards, c => c.points > 0) + sum(trick, c => c.points)")
    c.fn(s, {})
    assert s.work == 3 + 2
    s.work = MAX_WORK - 4
    with pytest.raises(RulesFault) as e:
        c.fn(s, {})
    assert f"more than {MAX_WORK:,} units of work" in str(e.value)


def test_nested_functions_of_each_element_stop_at_the_work_limit():
    big = "[" + ",".join(["1"] * 400) + "]"
    text = f"count({big}, a => count({big}, b => count({big}, c => c > 0) > 0) > 0)"
    start = time.perf_counter()
    with pytest.raises(RulesFault) as e:
        compile_expression(SYMBOLS, text).fn(state(), {})
    assert "units of work" in str(e.value) and time.perf_counter() - start < 20


# -- calls: a function's body is compiled once and called, or compiled in where that computes the same
class CountingRng:
    def __init__(self):
        self.draws = 0

    def below(self, n):
        self.draws += 1
        return 0


@pytest.mark.parametrize("body, total, reads", [
    ("0 if total > 5 else x", 5, "once, on the path taken"),
    ("0 if total > 5 else x", 9, "not at all on the path taken"),
    ("x + x", 5, "twice"),
])
def test_an_argument_that_draws_is_drawn_once_however_often_the_body_reads_it(body, total, reads):
    symbols = Symbols(global_vars={"total": NUM}, functions={"f": FunctionDef("f", ["x"], parse(body))})
    s = state()
    s.vars["total"] = total
    s.rng = CountingRng()
    compile_expression(symbols, "f(random([1, 2, 3]))").fn(s, {})
    assert s.rng.draws == 1, reads


def test_small_functions_of_plain_values_give_what_a_call_gives():
    symbols = Symbols(card_attrs=SYMBOLS.card_attrs, global_vars={"total": NUM}, shared_zones={"trick"},
                      functions={"pts": FunctionDef("pts", ["c"], parse("c.points * 2 + total")),
                                 "all_pts": FunctionDef("all_pts", ["z"], parse("sum(z, c => pts(c))"))})
    assert compile_expression(symbols, "all_pts(trick) + pts(top(trick))").fn(state(), {}) == (2 + 5 + 26 + 5) + 26 + 5


def test_a_function_first_called_with_null_reads_attributes_by_name():
    symbols = Symbols(player_vars={"score": NUM}, global_vars={"total": NUM},
                      functions={"named": FunctionDef("named", ["p"], parse("'nobody' if p == null else p.name")),
                                 "typo": FunctionDef("typo", ["p"], parse("0 if p == null else p.scroe"))})
    c = compile_expression(symbols, "named(null) + named(current)")
    assert c.fn(state(), {}) == "nobodyPlayer 2"
    with pytest.raises(ExprError) as e:
        compile_expression(symbols, "typo(null)")
    assert e.value.function == "typo" and "'scroe'" in e.value.message and "did you mean 'score'" in e.value.message


def test_a_value_tested_not_null_is_computed_once_and_means_the_same():
    symbols = Symbols(card_attrs=SYMBOLS.card_attrs, global_vars={"total": NUM}, shared_zones={"trick"},
                      functions={"pts": FunctionDef("pts", ["trick"], parse("top(trick).points if top(trick) != null else -1")),
                                 "first_pts": FunctionDef("first_pts", ["z"], parse("pts([z[0]])"))})
    s = state()             # trick: 5♥ (1 point), Q♠ (13 points)
    text = "top(trick).points * 100 + pts([top(trick), first(trick)]) + first_pts(trick) * 10" \
           " if top(trick) != null else 0"
    assert compile_expression(symbols, text).fn(s, {}) == 13 * 100 + 1 + 1 * 10
    s.zones["trick"] = []
    assert compile_expression(symbols, text).fn(s, {}) == 0


@pytest.mark.parametrize("text, holding, empty", [
    ("top(trick) != null and top(trick).points > 5", True, False),
    ("top(trick) == null or top(trick).points > 5", True, True),
    ("top(trick) == null or top(trick).points > 50", False, True),
    ("0 if top(trick) == null else top(trick).points", 13, 0),
])
def test_and_or_and_if_else_read_a_tested_value_once(text, holding, empty):
    s = state()
    assert compile_expression(SYMBOLS, text).fn(s, {}) == holding
    s.zones["trick"] = []
    assert compile_expression(SYMBOLS, text).fn(s, {}) == empty


class SteppingRng:
    """Draws 0, 1, 2, ... (modulo the size): two draws are never the same value."""
    def __init__(self):
        self.draws = 0

    def below(self, n):
        self.draws += 1
        return self.draws % n


def where(symbols, text, scope, option):
    from interpreter.closures.expressions import Closures
    node = ExprChecker(symbols).check(text, scope, BOOL)
    return Closures(symbols).condition(node, option)[0]


def test_in_a_where_an_argument_that_draws_is_drawn_once():
    symbols = Symbols(global_vars={"total": NUM}, functions={"same": FunctionDef("same", ["x"], parse("x == x"))})
    fn = where(symbols, "same(random([1, 2, 3])) and c > 0", {"c": NUM}, "c")
    s = state()
    s.rng = SteppingRng()
    assert fn(s, {"c": 1, "#memo": {}}) is True and s.rng.draws == 1


def test_in_a_where_a_call_that_draws_is_drawn_for_each_option():
    symbols = Symbols(global_vars={"total": NUM}, functions={"coin": FunctionDef("coin", [], parse("random([true, false])"))})
    fn = where(symbols, "coin() == true and c > 0", {"c": NUM}, "c")
    s = state()
    s.rng = SteppingRng()
    memo = {}
    for option in (1, 2, 3):
        fn(s, {"c": option, "#memo": memo})
    assert s.rng.draws == 3


def test_a_costly_argument_is_not_computed_again_through_a_body_compiled_in():
    symbols = Symbols(card_attrs=SYMBOLS.card_attrs, global_vars={"total": NUM}, shared_zones={"trick"},
                      functions={"g": FunctionDef("g", ["y"], parse(
                                     "count(filter(trick, a => count(filter(trick, b => b.points < y)) > 0))")),
                                 "f": FunctionDef("f", ["x"], parse("g(x)"))})
    s = state()             # trick: two cards; the argument visits 2, g's filters 2 + 2 x 2
    assert compile_expression(symbols, "f(count(filter(trick, c => c.points > 0)))").fn(s, {}) == 2
    assert s.work == 2 + 2 + 2 * 2


@pytest.mark.parametrize("text", [
    "count(trick + [null]) > 0 and top(trick + [null]).points > 1",
    "(trick + [null])[-1].points if count(trick + [null]) > 0 else 0",
    "random(trick) != null and random(trick).points > 1",
])
def test_a_test_does_not_vouch_for_a_list_holding_null_or_a_value_drawn_again(text):
    assert "may be null here" in compile_expression(SYMBOLS, text).warnings[0].message


def test_first_of_clockwise_walks_the_seats_from_the_player():
    s = state()
    s.players, s.out, s.names = (0, 1, 2, 3), [False, True, False, False], ["A", "B", "C", "D"]
    s.pvars = {"score": [9, 4, 7, 1]}
    assert compile_expression(SYMBOLS, "first(clockwise(current), p => p.score > 5)").fn(s, {}) == 2
    assert compile_expression(SYMBOLS, "first(clockwise(current), p => p.score > 50)").fn(s, {}) is None
    assert compile_expression(SYMBOLS, "first(clockwise(current.left), p => true)").fn(s, {}) == 2
    assert compile_expression(SYMBOLS, "first(clockwise(current), p => p.score < 5)").fn(s, {}) == 3
    s.current = None            # before anyone's turn: a null the checker cannot see
    with pytest.raises(RulesFault) as e:
        compile_expression(SYMBOLS, "first(clockwise(current), q => true)").fn(s, {})
    assert "'current' is null here" in str(e.value) and "so clockwise() has no player to start from" in str(e.value)


def test_a_body_compiled_in_does_not_hide_the_names_its_arguments_read():
    symbols = Symbols(card_attrs=SYMBOLS.card_attrs, global_vars={"total": NUM}, shared_zones={"trick"},
                      functions={"same": FunctionDef("same", ["x"], parse("count(trick, c => c == x)"))})
    s = state()                 # trick: two different cards, each the same as itself once
    assert compile_expression(symbols, "sum(trick, c => same(c))").fn(s, {}) == 2


def test_sum_adds_numbers_left_to_right_on_every_python():
    """sum() adds as Python 3.11's sum() does, one after another: from 3.12 Python's own
    compensates the rounding (ten 0.1s make 1.0 there), and a seed would mean another game."""
    assert evaluate("sum(map(range(0, total * 2), i => 0.1))") == 0.9999999999999999
    assert evaluate("sum(map(range(0, total), i => i))") == 10
    assert type(evaluate("sum(map(range(0, total), i => i))")) is int
