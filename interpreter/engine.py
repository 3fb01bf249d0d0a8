"""Stage 4: run a compiled Program.

The interface is OpenSpiel's narrow one: `new_game` makes a state and runs it
to the first decision; `pending` says who decides between what; `apply` takes
the index of the chosen option and runs to the next decision or the end.
Chance (shuffles) draws on the seeded generator inside the state, so a seed and
the list of decisions replay a game exactly.
"""
from __future__ import annotations

from .compiler import Program
from .errors import Problem, RulesError, UsageError, format_problem
from .state import Rng, State


def new_game(program: Program, seed: int = 0, players: int | None = None, stacks=None,
             log: bool = True, names=None) -> State:
    """A fresh game state, already advanced to the first decision."""
    lo, hi, default = program.players
    n = default if players is None else players
    if not lo <= n <= hi:
        allowed = str(lo) if lo == hi else f"{lo} to {hi}"
        raise UsageError(f"{program.name} is for {allowed} players, not {n}")
    s = State()
    s.seed = seed
    s.players = tuple(range(n))
    s.names = list(names) if names else [program.player_name.format(seat=i + 1) for i in range(n)]
    s.out = [False] * n
    s.zones = {}
    for z in program.zones.values():
        s.zones[z.name] = [[] for _ in range(n)] if z.per_player else []
    s.zones[program.start_zone].extend(range(len(program.deck.ids)))
    s.rng = Rng(seed)
    s.current = None
    s.pc = 0
    s.locals = {}
    s.frames = []
    s.scopes = []
    s.pending = None
    s.log = [] if log else None
    s.over = False
    s.revealed = set()
    s.stacks = [_cards(program, stack) for stack in (stacks or [])]
    s.steps = 0
    s.decisions = 0
    s.result = None
    s.journal = []
    s.requests = []
    s.rounds = 0
    s.vars = {}
    s.pvars = {}
    _init_variables(program, s)
    run(program, s)
    return s


def _cards(program: Program, notations) -> list[int]:
    """Cards for a list of notations; a repeated notation takes the next copy."""
    used = set()
    out = []
    for n in notations:
        if isinstance(n, int):
            out.append(n)
            continue
        c = program.card(n, skip=used)
        used.add(c)
        out.append(c)
    return out


def _init_variables(program: Program, s: State):
    for name, init in program.var_init.items():
        s.vars[name] = init(s, {}) if callable(init) else init
    for name, init in program.pvar_init.items():
        s.pvars[name] = [init(s, {"p": p}) for p in s.players]


def run(program: Program, s: State) -> None:
    """Advance until a decision is pending or the game is over."""
    code = program.code
    pc = s.pc
    limit = program.max_steps
    steps = s.steps
    try:
        while pc >= 0:
            pc = code[pc](s)
            steps += 1
            if steps > limit:
                raise RulesError(f"the game took more than {limit} steps; do the rules loop forever?")
    except RulesError as e:
        raise RulesError(_at(program, pc, e)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as e:
        raise RulesError(_at(program, pc, e)) from None
    finally:
        s.steps = steps
    if s.over and s.result is None:
        s.result = result(program, s)


def _at(program, pc, e) -> str:
    line, col = program.where[pc] if 0 <= pc < len(program.where) else (0, 0)
    return format_problem(Problem(program.file, line, col, f"rules error while running this step: {e}"))


def apply(program: Program, s: State, index: int) -> None:
    """The pending player picks option `index`; continue to the next decision."""
    if s.pending is None:
        raise RulesError("no decision is pending")
    player, options, cid = s.pending
    if not 0 <= index < len(options):
        raise RulesError(f"option {index} is out of range (0..{len(options) - 1})")
    spec = program.choices[cid]
    value = options[index]
    if s.log is not None:
        s.log.append({"type": "decision", "player": player,
                      "label": spec.label(s, s.locals, value), "index": index})
    s.locals[spec.var] = value
    s.pending = None
    s.decisions += 1
    run(program, s)


def labels(program: Program, s: State) -> list[str]:
    """Readable labels of the pending options, e.g. 'play Q♠'."""
    if s.pending is None:
        return []
    _, options, cid = s.pending
    label = program.choices[cid].label
    return [label(s, s.locals, o) for o in options]


def prompt(program: Program, s: State) -> str:
    return program.choices[s.pending[2]].prompt if s.pending else ""


def standing(program: Program, s: State) -> list | None:
    """How well each player stands now (higher is better), if the ruleset says."""
    if program.standing is None:
        return None
    return [program.standing(s, {"p": p}) for p in s.players]


def result(program: Program, s: State) -> dict:
    winners = list(program.winners(s, {}) or [])
    scores = [program.score(s, {"p": p}) for p in s.players] if program.score else None
    return {"winners": winners, "scores": scores}


def view(program: Program, s: State, seat: int | None) -> dict:
    """What `seat` may see (None: everything, as an onlooker after the game).

    Hidden cards appear as None, so a view keeps zone sizes but not contents.
    """
    ids = program.deck.ids
    revealed = s.revealed

    def show(cards, visible):
        return [ids[c] if (visible or c in revealed) else None for c in cards]

    zones = {}
    for z in program.zones.values():
        content = s.zones[z.name]
        if z.per_player:
            zones[z.name] = [show(c, _visible(z.visibility, seat, owner, c)) for owner, c in enumerate(content)]
        else:
            cards = show(content, _visible(z.visibility, seat, None, content))
            if z.visibility == "top" and content and seat is not None:
                cards[-1] = ids[content[-1]]
            zones[z.name] = cards
    v = {"seat": seat, "current": s.current, "vars": dict(s.vars),
         "players": {name: list(vals) for name, vals in s.pvars.items()},
         "eliminated": list(s.out), "zones": zones, "over": s.over}
    if s.pending and (seat is None or s.pending[0] == seat):
        v["options"] = labels(program, s)
    return v


def _visible(visibility, seat, owner, cards) -> bool:
    if seat is None or visibility == "public":
        return True
    if visibility == "owner":
        return owner == seat
    return False


def entry_for(entry: dict, seat: int | None):
    """A log entry as `seat` may see it, or None when it is hidden from that seat.

    seat None sees everything; another seat's decision shows who decided, not what
    (a label such as 'keep VII' can name a hidden card).
    """
    if seat is None:
        return entry
    if entry.get("to") not in (None, seat):
        return None
    if entry.get("type") == "decision" and entry.get("player") != seat:
        return {"type": "decision", "player": entry["player"]}
    return entry


def refresh(program: Program, s: State) -> None:
    """Ask the pending question again after the state was edited (tests, scenarios).

    The legal options were computed from the state as it was; this recomputes them.
    """
    if s.pending is not None:
        s.pending = None
        s.pc -= 1
        run(program, s)


def determinize(program: Program, s: State, seat: int, rng) -> State:
    """A copy of the game as `seat` might imagine it: every card that seat cannot see is
    dealt at random into the places it cannot see, and the future is reseeded.

    Zone sizes, the cards the seat sees and everything public stay as they are, so a
    bot that plans on such copies uses no more than its seat may know about the cards.
    """
    c = s.copy()
    places, hidden = [], []
    for z in program.zones.values():
        content = c.zones[z.name]
        parts = enumerate(content) if z.per_player else [(None, content)]
        for owner, cards in parts:
            visible = _visible(z.visibility, seat, owner, cards)
            for i, card in enumerate(cards):
                top_shown = z.visibility == "top" and i == len(cards) - 1
                if not (visible or top_shown or card in c.revealed):
                    places.append((cards, i))
                    hidden.append(card)
    rng.shuffle(hidden)
    for (cards, i), card in zip(places, hidden):
        cards[i] = card
    c.rng = Rng(state=rng.next())
    c.log = None
    return c
