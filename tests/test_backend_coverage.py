"""Every node of the expression IR and every built-in the checker hands on has a writer in
both back ends (issue 27): a node or built-in added on one side only fails here, not as a
divergence in random play.  A built-in the generated back end has no writer for runs the
closure back end's built-in there, with the same values, work and faults."""
from __future__ import annotations

import inspect
import re

import pytest

from test_backends import BACKENDS, Duel
from interpreter import pipeline
from interpreter.closures import functions as closure_builtins
from interpreter.closures.expressions import Closures
from interpreter.check import builtins as checked_builtins
from interpreter.lang import expr_ir
from interpreter.errors import RulesFault
from interpreter.generated.expressions import Source
from interpreter.runtime.engine import new_game

NODES = [v for v in vars(expr_ir).values()
         if inspect.isclass(v) and issubclass(v, expr_ir.Node) and v not in (expr_ir.Node, expr_ir.Const)]
# built-ins the checker turns into other nodes (zone('x') is a zone, len is count), and the one
# it makes of a slice xs[a:b]
LOWERED = {"zone": None, "len": "count"}
MADE = {"slice"}


def test_every_expression_node_has_a_writer_in_both_back_ends():
    """(A constant, folded, is written before any dispatch.)"""
    assert len(NODES) > 20
    for back_end in (Closures, Source):
        assert not [n.__name__ for n in NODES if not hasattr(back_end, "_" + n.__name__)], back_end.__name__


def test_every_built_in_the_checker_knows_runs_in_both_back_ends():
    handed_on = {LOWERED.get(name, name) for name in checked_builtins.BUILTINS} - {None} | MADE
    assert handed_on == set(closure_builtins.BUILTINS)
    assert not [name for name in closure_builtins.BUILTINS if not hasattr(Source, "_b_" + name)]


# -- a built-in with no writer in the generated back end: the closure back end's --------------
EVERY_BUILT_IN = """\
name: every_built_in
players: 3
deck:
  cards: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}, {id: d, rank: 4}, {id: e, rank: 5},
          {id: f, rank: 6}, {id: g, rank: 7}, {id: h, rank: 8}, {id: i, rank: 9}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  pile: {visibility: public}
variables:
  n: 0
  m: 0
  said: "''"
  seats: {type: "list[player]", initial: "[]"}
  sets: 0
  best: {type: card, initial: "null"}
  truth: false
  tally: {type: "map[number]", initial: {a: 1}}
functions:
  high:                                   # small: written in at its call
    params: [z]
    expr: "max_by(z, c => c.rank)"
  spread:                                 # larger, two parameters: a call or a body of its own
    params: [z, k]
    expr: >
      sum(map(filter(z, c => c.rank > k), c => abs(c.rank - k)))
      + count(subsets(z, 1, 2), t => sum(t, x => x.rank) > k) + len(z[1:]) + (min(map(z, c => c.rank)) ?? 0)
      + (max(range(k, k + 3)) ?? 0) + (bottom(z).rank if bottom(z) != null else 0)
flow:
  setup:
    - deal: {from: stock, to: hand, count: 3}
  round:
    - turns:
        count: 3
        do:
          - set:
              m: "sum(map(current.hand, c => c.rank)) + (min(map(pile, c => c.rank)) ?? 0) + (max(map(pile, c => c.rank)) ?? 0) + sum(current.hand, c => c.rank)"
              best: "high(current.hand)"
              n: "spread(current.hand, n % 5) + count(clockwise(current)) + abs(n - 7)"
              seats: "filter(players, p => any(p.hand, c => c.rank > n % 9)) + [player(n), first(clockwise(current), q => count(q.hand) > 1) ?? current]"
              truth: "all(players, p => count(p.hand) >= 0) and any(map(pile, c => c.rank > 4)) and all(map(pile, c => c.rank > 0))"
              sets: "count(subsets(current.hand)) + len(current.hand[:2]) + len(range(3)) + count(players, p => p == current) + count(groups(current.hand, c => c.rank % 2)) + count(runs(current.hand, c => c.rank, 2)) + count(sums(current.hand, c => c.rank, 9)) + count(keys(tally)) + (tally['a'] ?? 0) + count({'x': 1, 'y': n})"
              said: "text(map(current.hand, c => c.rank), ' and ') + text(best) + text(first(current.hand)) + text(min_by(current.hand, c => c.rank))"
          - choose: current.hand
            as: card
            where: "card.rank >= (min_by(current.hand, c => c.rank)?.rank ?? 0) and spread(current.hand, 1) >= 0 and count(filter(current.hand, c => c.rank < card.rank)) >= 0 and card != top(pile)"
          - move: {card: card, from: current.hand, to: pile}
          - if: "count(pile) > 0 and top(pile) != random(pile)"
            then:
              - add: {n: 1, "tally[text(n % 3)]": 1}
  until: "count(stock) == 0 and all(players, p => count(p.hand) == 0)"
result:
  winners: "filter(players, p => p == player(n))"
"""


@pytest.mark.parametrize("name", sorted(closure_builtins.BUILTINS))
def test_a_built_in_with_no_generated_writer_plays_as_the_closure_back_ends_built_in(name, monkeypatch):
    """Every built-in called in a step, in a function written in or called, in a `where` and
    inside other built-ins' functions of each element: with its writer taken away, the
    generated program calls the closure back end's built-in and plays the same games,
    decision by decision (states, work and account)."""
    assert re.search(r"\[\d*:\d*\]" if name == "slice" else rf"\b{name}\(", EVERY_BUILT_IN)   # slice: xs[a:b]
    monkeypatch.delattr(Source, "_b_" + name)
    programs = tuple(pipeline.load_program_text(EVERY_BUILT_IN, "every_built_in.yaml", backend=b) for b in BACKENDS)
    assert programs[1].backend == "generated" and programs[1].left_out == 0
    assert re.search(r"_c\d+\(s, \{0: ", programs[1].source), "the closure's built-in is not called"
    for seed in range(4):
        Duel(programs, seed, 3, what=f"{name} without its writer, seed {seed}").play()


FAULTY = """\
name: faulty
players: 2
deck:
  cards: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}, {id: d, rank: 4}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  n: 0
  best: {type: card, initial: "null"}
  who: {type: player, initial: "null"}
functions:
  size:
    params: [k]
    expr: "abs(k) + 1"
flow:
  setup:
    - deal: {from: stock, to: hand, count: 1}
    - set: {n: "EXPRESSION"}
  round:
    - turns:
        do:
          - choose: current.hand
            as: card
            where: "WHERE"
  until: "true"
result:
  winners: "[]"
"""


@pytest.mark.parametrize("name, expression, words", [
    ("abs", "size(best?.rank)", "so abs() has no number"),
    ("sum", "sum(map(stock, c => best?.rank))", "so sum() cannot add it"),
    ("min", "min(map(stock, c => best?.rank)) ?? 0", "so min() cannot compare it"),
    ("max_by", "max_by(stock, c => best?.rank)?.rank ?? 0", "so max_by() cannot compare it"),
    ("player", "count(player(best?.rank).hand)", "so player() has no seat number"),
    ("count", "count(who?.hand)", "so count() has nothing to go through"),
    ("filter", "count(filter(who?.hand, c => true))", "so filter() has nothing to go through"),
    ("clockwise", "count(clockwise(who))", "so clockwise() has no player to start from"),
    ("first", "count((first(clockwise(who), q => true) ?? player(0)).hand)", "so clockwise() has no player"),
    ("abs", "where: card.rank > size(best?.rank)", "so abs() has no number"),
    ("sum", "where: sum(map(current.hand, c => c.rank if c != card else best?.rank)) > 0", "so sum() cannot add it"),
])
def test_a_fault_in_a_built_in_with_no_generated_writer_reads_as_the_closure_back_end_tells_it(
        name, expression, words, monkeypatch):
    """The closure back end's built-in, called from generated code, does not tell a fault
    itself (in a function written in, it would name the parameter, not what the caller
    wrote): the closure back end computes the expression again and tells it."""
    monkeypatch.delattr(Source, "_b_" + name)
    where = expression.startswith("where: ")        # in a choice's `where`, once the game has begun
    text = FAULTY.replace("EXPRESSION", "0" if where else expression).replace(
        "WHERE", expression[len("where: "):] if where else "true")
    told = []
    for backend in BACKENDS:
        program = pipeline.load_program_text(text, "faulty.yaml", backend=backend)
        with pytest.raises(RulesFault) as e:
            new_game(program, seed=1)
        told.append(str(e.value))
    assert told[0] == told[1] and words in told[0]
