"""Stage 3: the first back end, from a checked ruleset (lang/ir.py) to the Program the
engine runs: expressions become closures, steps become VM instructions.

Because the program counter, call frames and scopes live in the state, a game can
pause at any decision and be copied or resumed.  The ruleset is checked: building it
cannot fail.
"""
from __future__ import annotations

from ..lang import ir
from ..runtime import vm
from ..runtime.program import Program, StatisticSpec, TableSpec, ZoneSpec
from ..runtime import events
from ..runtime.tally import round_recorder
from .expressions import Closures
from .layout import FlowLayout, IfLayout, Span
from .steps import TURN_BEGUN, TURN_OVER, Code, StepBuilder


def build_program(ruleset: ir.Ruleset) -> Program:
    """The Program of a checked ruleset."""
    return build_layout(ruleset)[0]


def build_layout(ruleset: ir.Ruleset, closures=None):
    """(Program, StepBuilder, Code): the program, and where each step's instructions lie
    (the builder's layout, closures/layout.py), for a back end that writes the same
    instructions another way (generated/).  `closures` compiles the expressions (default:
    the closure back end's)."""
    r = ruleset
    code = Code()
    dispatch = {name: code.label() for name in r.triggers}
    procs = {name: code.label() for name in r.procedures}
    b = StepBuilder(code, closures or Closures(r.symbols), dispatch, procs, r.step_ids)
    for payload in r.events.values():
        for name, typ in payload.items():
            b.bind(name, typ)
    for _, name, typ in r.procedure_params:     # a procedure's parameters are its locals
        b.bind(name, typ)
    stats = [StatisticSpec(st.name, st.per, st.label, b.fn_of(st.value)) for st in r.statistics]
    per_round = [st.fn for st in stats if st.per == "round"]     # a tally's row, in declared order
    record = round_recorder(per_round) if per_round else None
    shown = [(section, name) for section, name, _ in _shown(r)]
    b.layout.round_started = events.round_started(shown)
    b.layout.round_ended = events.round_ended(shown, record)
    _flow(b, r.flow)
    returns = {}                # label of a procedure or dispatcher -> the pc of its `ret`
    for name, label in procs.items():
        code.place(label)
        b.steps(r.procedures[name])
        returns[label] = code.emit(vm.ret(), ("procedures", name))
    for name, label in dispatch.items():
        code.place(label)
        for t in r.triggers[name]:
            _trigger(b, t)
        returns[label] = code.emit(vm.ret(), ("triggers",))
    res = r.result
    program = Program(
        name=r.name, title=r.title, file=r.file, lang=r.lang, languages=r.languages, options=r.options,
        option_specs=r.option_specs, players=r.players, deck=r.deck, start_zone=r.start_zone,
        zones={n: ZoneSpec(z.name, z.per_player, z.visibility, z.label, z.piles) for n, z in r.zones.items()},
        var_init={n: b.fn_of(v.initial) for n, v in r.variables.items()},
        pvar_init={n: b.fn_of(v.initial) for n, v in r.player_variables.items()},
        code=code.link(), where=[r.at(p) for p in code.paths],
        effect_where={pc: [r.at(p) for p in paths] for pc, paths in code.batches.items()},
        lines=r.lines, choices=b.choices, winners=b.fn_of(res.winners), score=b.fn(res.score),
        max_steps=r.flow.max_steps, shown=_shown(r), symbols=r.symbols, standing=b.fn(res.standing),
        var_visibility={n: v.visibility for n, v in r.variables.items()},
        pvar_visibility={n: v.visibility for n, v in r.player_variables.items()},
        card_locals=frozenset(b.card_locals), card_cursors=frozenset(b.card_cursors), card_scopes=b.card_scopes,
        seat_names=r.seat_names, teams=dict(r.teams), team_names=r.team_names, team_vars=frozenset(r.symbols.team_vars), statistics=stats, real=r.real, rules_text=r.rules_text, rules_path=r.rules_path,
        facts=r.facts, round_name=r.round_name, guide=r.guide,
        table=tuple(TableSpec(t.name, t.label, t.per_player, b.fn_of(t.value), t.value.type) for t in r.table))
    program.points = _points(b, r.events)
    layout = b.layout
    layout.dispatch = {name: code.labels[label] for name, label in dispatch.items()}
    layout.procs = {name: code.labels[label] for name, label in procs.items()}
    layout.calls = [(pc, code.labels[label]) for pc, label in b.call_labels]
    layout.returns = {code.labels[label]: ret for label, ret in returns.items()}
    return program, b, code


def _flow(b: StepBuilder, flow: ir.Flow):
    """The game: setup, rounds until `until`, then the end steps.  The round's hooks
    (b.layout) note its start and end in the account; the end's hook also keeps the round's
    statistics, after its round_end triggers, in the step that tests `until`."""
    code, layout = b.code, b.layout
    end, round_top, round_end = code.label(), code.label(), code.label()
    start = code.emit(vm.push_scope("game", end), ("flow",))
    b.steps(flow.setup)
    code.place(round_top)
    top = code.emit(vm.push_scope("round", round_end, layout.round_started), ("flow", "round"))
    start_call = b.emit_event("round_start", {}, ("flow", "round"))
    b.steps(flow.round)
    code.place(round_end)
    ended = code.emit(vm.pop_scope(), ("flow", "round"))
    end_call = b.emit_event("round_end", {}, ("flow", "round"))
    until = code.emit(vm.jump_unless_after(layout.round_ended, b.fn_of(flow.until), round_top), ("flow", "until"))
    code.place(end)
    over = code.emit(vm.pop_scope(), ("flow",))
    b.steps(flow.end)
    halt = code.emit(vm.halt(), ("flow",))
    layout.flow = FlowLayout(Span(start, halt + 1), start, top, start_call, ended, end_call, until, over, halt)


def _points(b: StepBuilder, events: dict) -> dict:
    """Where a scenario may stop the rules (engine.run_to): name -> ((pc, span), ...), the pcs
    the flow comes to there, each through its span (engine.comes_from).
    The game and a round start before anything of theirs runs (its triggers included), a
    turn once its player is current; a turn, a round and an event of the ruleset end once
    their triggers have answered; ("before", id) and ("after", id) are the two ends of the
    step with that id."""
    found = b.layout.points
    flow = b.layout.flow
    points = {name: tuple(pcs) for name, pcs in found.items() if isinstance(name, tuple)}
    points.update({name: tuple(pcs) for name, pcs in found.items()
                   if isinstance(name, str) and not name.startswith("#") and name not in BUILT_IN})
    points.update({name: () for name in events if name not in points and name not in BUILT_IN})   # never raised
    points.update(game_start=((flow.start, None),), round_start=((flow.round_top, None),),
                  round_end=((flow.until, None),), turn_start=tuple(found.get(TURN_BEGUN, ())),
                  turn_end=tuple(found.get(TURN_OVER, ())))
    return points


BUILT_IN = ("round_start", "round_end", "turn_start", "turn_end")


def _trigger(b: StepBuilder, t: ir.Trigger):
    """A trigger: its `when` tested (laid out as an `if` with no `else`), its body."""
    skip, start = b.code.label(), len(b.code.factories)
    test = None
    if t.when is not None:
        test = b.code.emit(vm.jump_unless(b.fn_of(t.when), skip), t.path + ("when",))
    b.steps(t.body)
    b.code.place(skip)
    b.layout.triggers[id(t)] = IfLayout(Span(start, len(b.code.factories)), test)


def _shown(r: ir.Ruleset) -> list:
    """(section, name, label) of the variables shown to people, in declared order."""
    return [(section, v.name, v.shown) for section, variables in (("variables", r.variables),
                                                                   ("player_variables", r.player_variables))
            for v in variables.values() if v.shown is not None]
