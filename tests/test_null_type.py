"""Null is part of the type system: a value that may be null, used as a value where no test
shows it is not, is warned of when the rules load (an error under --strict); docs/language.md,
"Null" and "Compatibility"."""
from __future__ import annotations

import pytest

from interpreter.lang.syntax import ExprError, parse
from interpreter.lang.symbols import FunctionDef, Symbols
from interpreter.lang.types import CARD, NUM, PLAYER, STR
from interpreter.pipeline import compile_expression, load_program_text

SYMBOLS = Symbols(
    card_attrs={"id": (STR, ("5H", "QS", "2C")), "value": (NUM, (5, 12, 2))},
    global_vars={"total": NUM, "picked": CARD, "winner": PLAYER, "flags": "list[bool]"},
    player_vars={"score": NUM},
    shared_zones={"pile"}, player_zones={"hand"},
    functions={"worth": FunctionDef("worth", ["c"], parse("c.value")),
               "top_value": FunctionDef("top_value", [], parse("top(pile).value")),
               "safe_top_value": FunctionDef("safe_top_value", [], parse("top(pile).value if count(pile) > 0 else 0")),
               "pile_top": FunctionDef("pile_top", [], parse("top(pile)")),
               "value_or_zero": FunctionDef("value_or_zero", ["c"], parse("c.value if c != null else 0"))},
    all_cards=(0, 1, 2), seats=2)


def refused(text) -> ExprError:
    """The first warning of `text`; under strict, the same is raised as an error."""
    warnings = compile_expression(SYMBOLS, text).warnings
    assert warnings, f"no warning for {text}"
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, text, strict=True)
    assert e.value.message == warnings[0].message
    return warnings[0]


def accepted(text):
    node = compile_expression(SYMBOLS, text)
    assert node.warnings == [], [w.message for w in node.warnings]
    return node


# -- each source of null, used as a value, is refused -------------------------------------
@pytest.mark.parametrize("source", [
    "top(pile)", "bottom(pile)", "pile.top", "pile.bottom", "first(pile)", "first(pile, c => c.value > 3)",
    "min_by(pile, c => c.value)", "max_by(pile, c => c.value)", "random(pile)", "pile[0]", "all_cards[total]",
    "(top(pile) if total > 0 else picked)", "pile_top()",
])
def test_each_source_of_null_is_warned_of_as_the_object_of_an_attribute(source):
    e = refused(f"{source}.value")
    shown = "top(pile) if (total > 0) else picked" if source.startswith("(") else source
    assert e.message.startswith(f"'{shown}' may be null here") and e.offset == source.startswith("(")


@pytest.mark.parametrize("text, part", [
    ("min(map(pile, c => c.value)) + 1", "min(map(pile, c => c.value))"),
    ("max(map(pile, c => c.value)) > 3", "max(map(pile, c => c.value))"),
    ("-pile[1].value", "pile[1]"),
    ("total < first(map(pile, c => c.value))", "first(map(pile, c => c.value))"),
    ("3 in first([[1], [2]], xs => count(xs) > 1)", "first([[1], [2]], xs => count(xs) > 1)"),
    ("count(first([[1], [2]], xs => count(xs) > 1))", "first([[1], [2]], xs => count(xs) > 1)"),
    ("first(flags) and total > 0", "first(flags)"),
    ("not first(flags)", "first(flags)"),
    ("1 if first(flags) else 2", "first(flags)"),
    ("abs(pile[2].value)", "pile[2]"),
    ("first(players, p => p.score > 9).hand", "first(players, p => p.score > 9)"),
    ("zone('hand', first(players, p => p.score > 9))", "first(players, p => p.score > 9)"),
])
def test_a_value_that_may_be_null_is_warned_of_where_a_value_is_needed(text, part):
    assert f"'{part}' may be null here" in refused(text).message


def test_the_null_literal_has_no_value_and_stays_an_error():
    with pytest.raises(ExprError) as e:
        compile_expression(SYMBOLS, "total + null")
    assert e.value.message == "null has no value: it cannot be used here"


def test_the_hint_brackets_what_is_written_with_operators():
    assert refused("(top(pile) if total > 0 else picked).value").hint == \
        "write `(top(pile) if (total > 0) else picked)?.value ?? 0`, or test " \
        "`(top(pile) if (total > 0) else picked) != null` first"


def test_the_message_names_the_part_says_why_and_the_hint_shows_the_short_way():
    e = refused("total + top(pile).value")
    assert e.message == "'top(pile)' may be null here (top of an empty zone)"
    assert e.hint == "write `top(pile)?.value ?? 0`, or test `top(pile) != null` first"
    assert (e.offset, e.end) == (len("total + "), len("total + top(pile)"))


@pytest.mark.parametrize("text, hint", [
    ("total + max(map(pile, c => c.value))", "write `max(map(pile, c => c.value)) ?? 0`, or test "
                                             "`max(map(pile, c => c.value)) != null` first"),
    ("not first(flags)", "write `first(flags) ?? false`, or test `first(flags) != null` first"),
    ("count(first(players, p => p.score > 9).hand)", "write `first(players, p => p.score > 9)?.hand`, or test "
                                                     "`first(players, p => p.score > 9) != null` first"),
])
def test_the_hint_suggests_a_default_of_the_type_needed(text, hint):
    assert refused(text).hint == hint


def test_a_long_part_is_shortened_and_the_hint_never_repeats_the_expression():
    long = "first(pile, c => c.value > 3 and c.value < 9 and c.id != '5H' and c.id != 'QS')"
    e = refused(f"total + {long}.value * 2 + worth(picked) + worth(picked) + worth(picked)")
    assert e.message.startswith("'first(pile, c => ") and "…' may be null here" in e.message
    assert len(e.message) < 100
    assert long not in e.hint and len(e.hint) < 100 and "?." in e.hint and "??" in e.hint


def test_a_variable_declared_initial_null_is_not_may_be_null():
    accepted("picked.value + winner.score")


def test_players_and_a_constant_list_are_never_empty():
    accepted("max_by(players, p => p.score).score + first(players).score + random([1, 2]) + players[1].score")
    assert "'players[2]' may be null here" in refused("players[2].score").message       # 2 seats at least


# -- testing narrows ------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "top(pile).value if top(pile) != null else 0",
    "0 if top(pile) == null else top(pile).value",
    "0 if null == top(pile) else top(pile).value",
    "top(pile) != null and top(pile).value > 3",
    "top(pile) == null or top(pile).value > 3",
    "not (top(pile) == null) and top(pile).value > 3",
    "0 if not (top(pile) != null) else top(pile).value",
    "top(pile).value if count(pile) > 0 else 0",
    "pile.top.value if count(pile) != 0 else 0",
    "first(pile).value if pile.size > 0 else 0",
    "0 if count(pile) == 0 else bottom(pile).value + pile.bottom.value",
    "0 if len(pile) < 1 else min_by(pile, c => c.value).value + max_by(pile, c => c.value).value",
    "min(map(pile, c => c.value)) + max(map(pile, c => c.value)) if count(map(pile, c => c.value)) >= 1 else 0",
    "pile[0].value + pile[-1].value if 0 < count(pile) else 0",
    "count(pile) > 0 and total > 1 and top(pile).value > 3",
    "top(pile) != null and bottom(pile) != null and top(pile).value > bottom(pile).value",
    "random(pile).value if count(pile) > 0 else 0",
])
def test_each_narrowing_form_allows_the_value(text):
    accepted(text)


@pytest.mark.parametrize("text, part", [
    ("top(pile).value if bottom(pile) != null else 0", "top(pile)"),
    ("top(pile) != null or top(pile).value > 3", "top(pile)"),
    ("0 if top(pile) != null else top(pile).value", "top(pile)"),
    ("first(pile, c => c.value > 3).value if count(pile) > 0 else 0", "first(pile, c => c.value > 3)"),
    ("top(current.hand).value if count(pile) > 0 else 0", "top(current.hand)"),
    ("(top(pile).value if top(pile) != null else 0) + top(pile).value", "top(pile)"),
])
def test_a_test_narrows_only_what_it_tests_and_only_where_it_holds(text, part):
    assert f"'{part}' may be null here" in refused(text).message


# -- what may be done with a value that may be null -----------------------------------------
@pytest.mark.parametrize("text", [
    "top(pile) == picked", "top(pile) != null", "text(top(pile))", "top(pile) in pile",
    "[top(pile), picked]", "value_or_zero(top(pile)) + 1", "top(pile) if total > 0 else null",
])
def test_comparing_showing_and_passing_a_value_that_may_be_null_are_fine(text):
    accepted(text)


def test_a_parameter_first_given_a_value_that_may_be_null_must_be_tested_in_the_body():
    [e] = compile_expression(SYMBOLS, "worth(top(pile))").warnings
    assert e.function == "worth" and "'c' may be null here (it may be bound to null)" in e.message


def test_a_function_whose_body_may_be_null_gives_a_value_that_may_be_null():
    assert "'pile_top()' may be null here (pile_top() may give null: top of an empty zone)" in \
        refused("pile_top().value").message
    accepted("pile_top().value if pile_top() != null else 0")


def test_a_function_body_must_test_its_own_whatever_its_callers_tested():
    [e] = compile_expression(SYMBOLS, "top_value() if count(pile) > 0 else 0").warnings
    assert e.function == "top_value" and "'top(pile)' may be null here" in e.message
    accepted("safe_top_value() + 1")


def test_an_element_of_a_list_that_holds_null_may_be_null():
    assert "'c' may be null here" in refused("count(pile + [null], c => c.value > 3)").message
    accepted("count(pile + [null], c => c != null and c.value > 3)")


# -- steps ----------------------------------------------------------------------------------
RULES = """
name: nulls
players: 2
deck:
  product:
    suit: [A, B]
    rank: [{id: "1", value: 1}, {id: "2", value: 2}]
  zone: stock
zones:
  stock: {visibility: hidden}
  pile: {visibility: public}
  hand: {per_player: true, visibility: owner}
variables:
  total: 0
  last: {type: card, initial: null}
flow:
  round:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 1}
    - turns:
        until: "count(current.hand) == 0"
        do:
          - choose: "current.hand + [null]"
            as: card
          - STEP
result:
  winners: active
"""


def problems(step) -> str:
    """The warnings of the ruleset with `step` (it loads: they are not errors)."""
    return "\n".join(map(str, load_program_text(RULES.replace("STEP", step)).warnings))


@pytest.mark.parametrize("step", [
    'if: "top(pile) != null"\n            then: [add: {total: "top(pile).value"}]',
    'if: "top(pile) == null"\n            then: [log: "empty"]\n            else: [add: {total: "top(pile).value"}]',
    'if: "count(pile) > 0"\n            then: [log: "{top(pile).value}", set: {last: top(pile)}]',
    'if: "card != null"\n            then: [move: {card: card, from: current.hand, to: pile}, add: {total: card.value}]',
    'set: {last: "top(pile)"}',
    'log: "{top(pile)} {card}"',
])
def test_a_step_if_narrows_its_then_and_else_steps(step):
    assert problems(step) == ""


@pytest.mark.parametrize("step, part", [
    ('add: {total: "top(pile).value"}', "top(pile)"),
    ('if: "top(pile) != null"\n            then: [log: "x"]\n            else: [add: {total: "top(pile).value"}]',
     "top(pile)"),
    ('if: "card.value > 1"\n            then: [log: "x"]', "card"),
    ('if: "first([true, null])"\n            then: [log: "x"]', "first([true, null])"),
    ('while: "first(map(pile, c => c.value > 1))"\n            do: [log: "x"]', "first(map(pile, c => c.value > 1))"),
])
def test_a_step_that_uses_a_value_that_may_be_null_is_warned_of(step, part):
    assert f"'{part}' may be null here" in problems(step)


# -- the short way: ?. and ?? (docs/language.md, "Null") ------------------------------------
def value_of(text, pile=(), picked=1):
    """`text` computed by the closure back end, with the pile holding cards `pile`."""
    from types import SimpleNamespace
    s = SimpleNamespace(vars={"total": 10, "picked": picked, "winner": 0, "flags": []}, pvars={"score": [3, 12]},
                        zones={"pile": list(pile), "hand": [[], [0]]}, current=0, out=[False, False],
                        players=(0, 1), names=["A", "B"], work=0)
    return accepted(text).fn(s, {})


@pytest.mark.parametrize("text, empty, full", [
    ("top(pile)?.value", None, 12),
    ("top(pile)?.value ?? 0", 0, 12),
    ("top(pile)?.id ?? ''", "", "QS"),
    ("total + top(pile)?.value ?? 0", 10, 22),
    ("top(pile)?.value ?? 0 > 5", False, True),
    ("top(pile) ?? picked", 1, 1),
    ("(top(pile) ?? picked).value", 12, 12),
    ("picked?.value ?? 0", 12, 12),
    ("first(players, p => p.score > 9)?.left?.name", "A", "A"),
])
def test_safe_navigation_is_null_where_its_left_side_is_and_coalescing_puts_the_right_side_there(text, empty, full):
    assert value_of(text) == empty and value_of(text, pile=[0, 1]) == full


def test_coalescing_tests_even_a_variable_the_checker_takes_to_be_set():
    assert value_of("picked?.value ?? -1", picked=None) == -1 and value_of("picked ?? top(pile)", [2], None) == 2


@pytest.mark.parametrize("text, part", [
    ("top(pile)?.value + 1", "top(pile)?.value"),
    ("(top(pile)?.value ?? bottom(pile)?.value) + 1", "top(pile)?.value ?? bottom(pile)?.value"),
    ("first(players, p => p.score > 9)?.left.name", "first(players, p => p.score > 9)?.left"),
])
def test_safe_navigation_gives_a_value_that_may_be_null_and_coalescing_one_only_if_its_right_side_may_be(text, part):
    assert refused(text).message.startswith(f"'{part}' may be null here")


def test_coalescing_needs_both_sides_of_one_type_and_a_left_side_computed_once():
    with pytest.raises(ExprError, match="both sides must be of one type"):
        compile_expression(SYMBOLS, "top(pile)?.id ?? 3")
    with pytest.raises(ExprError, match="computed once"):
        compile_expression(SYMBOLS, "random(pile)?.value ?? 0")
