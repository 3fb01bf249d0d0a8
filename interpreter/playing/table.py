"""Seat agents at a table and play one game to its end."""
from __future__ import annotations

from .agents import Decision
from ..runtime.engine import apply, new_game, view
from ..runtime.events import public_value
from ..errors import RulesFault


def play(program, agents, seed: int = 0, players: int | None = None, stacks=None,
         log: bool = True, on_log=None, on_decision=None, prefix=(), tally: bool = False):
    """Play a whole game; `agents[seat]` decides for each seat. Returns the final state.

    `prefix` holds option indexes already decided (a resumed game): they are applied
    before any agent is asked.  `on_log(entries)` gets each batch of new log entries
    as the game goes, so an account can be shown while a person plays;
    `on_decision(state, seat, index, label)` runs after every decision, so a record can be
    saved (it is told the decision, which an account that has stopped would not hold), also
    after one whose consequences end in an error, so that the record replays up to it; `tally`:
    the state keeps the per-round statistics (engine.new_game).
    """
    try:
        s = new_game(program, seed=seed, players=players, stacks=stacks, log=log, tally=tally)
    except RulesFault as e:
        if on_log and getattr(e, "state", None) is not None and e.state.log:
            on_log(e.state.log)
        raise
    shown = 0
    pending = list(prefix)
    try:
        while not s.over:
            if on_log and s.log is not None and len(s.log) > shown:
                on_log(s.log[shown:])
                shown = len(s.log)
            if pending:
                apply(program, s, pending.pop(0))
                continue
            decision = Decision(program, s)
            index = agents[decision.seat].choose(decision)
            label = decision.labels[index] if on_decision else None
            try:
                apply(program, s, index)
            finally:        # noted even when what follows stops the game (the rules, a bug): a record replays to it
                if on_decision:
                    on_decision(s, decision.seat, index, label)
    finally:        # the account up to the end, or up to a rules error
        if on_log and s.log is not None and len(s.log) > shown:
            on_log(s.log[shown:])
    return s


def result_summary(s) -> dict:
    """Who won, the scores, who was out: what a record keeps of a finished game."""
    return {"winners": list(s.result["winners"]), "scores": s.result["scores"],
            "eliminated": [p for p in s.players if s.out[p]], "decisions": s.decisions, "seed": s.seed}


def result_data(program, s, kinds=None) -> dict:
    """A finished game's result as JSON-ready data, with the same keys for every ruleset:
    seats numbered from 1 (as on the command line and in --log), each player's score (null
    when the ruleset keeps none), whether they won or were out, and the values the ruleset
    shows at the table (`shown`: the shared ones; each player's own under `players`)."""
    shown = view(program, s, None)          # the game is over: every variable may be read
    scores = s.result["scores"]
    winners = set(s.result["winners"])
    gtypes, ptypes = program.symbols.global_vars, program.symbols.player_vars
    players = []
    for p in s.players:
        own = {name: public_value(program, shown["players"][name][p], ptypes.get(name))
               for section, name, _ in program.shown if section == "player_variables"}
        own.update({t.name: public_value(program, shown["table"][t.name][p], t.type) for t in program.table if t.per_player})
        players.append({"seat": p + 1, "name": s.names[p], "kind": kinds[p] if kinds else None,
                        "score": None if scores is None else scores[p], "won": p in winners, "out": bool(s.out[p]),
                        "shown": own})
    common = {name: public_value(program, shown["vars"][name], gtypes.get(name))
              for section, name, _ in program.shown if section == "variables"}
    common.update({t.name: public_value(program, shown["table"][t.name], t.type) for t in program.table if not t.per_player})
    out = {"ruleset": program.name, "seed": s.seed, "decisions": s.decisions, "options": dict(program.options),
           "winners": [w + 1 for w in s.result["winners"]], "winner_names": [s.names[w] for w in s.result["winners"]],
           "players": players, "shown": common}
    sides = program.sides(len(s.names), s.names)
    if sides:
        out["teams"] = [{"team": k + 1, "name": name, "seats": [p + 1 for p in seats],
                         "won": bool(seats) and all(p in winners for p in seats),
                         "score": None if scores is None or len({scores[p] for p in seats}) != 1 else scores[seats[0]]}
                        for k, (name, seats) in enumerate(sides)]
    return out
