"""Stage 4: run a compiled Program.

The interface is OpenSpiel's narrow one: `new_game` makes a state and runs it
to the first decision; `pending` says who decides between what; `apply` takes
the index of the chosen option and runs to the next decision or the end.
Chance (shuffles) draws on the seeded generator inside the state, so a seed and
the list of decisions replay a game exactly.
"""
from __future__ import annotations

from .program import Program, offers_piles, option_card, option_cards, renamed_option
from .effects import _list, account_text, note, zone_at
from . import events
from ..errors import Problem, RulesFault, rules_caused, words
from . import piles, windows
from .state import Rng, State, _blank, partners_of


def new_game(program: Program, seed: int = 0, players: int | None = None, stacks=None,
             log: bool = True, names=None, tally: bool = False, start: bool = True) -> State:
    """A fresh game state, already advanced to the first decision (`start` False: not begun,
    at the start of the game).  `tally`: keep the values of the ruleset's per-round
    statistics as rounds end (State.tally, for simulations)."""
    n = program.player_count(players)
    s = _blank()                # every field is set below
    s.seed = seed
    s.work = s.logged = 0
    s.players = tuple(range(n))
    s.names = list(names) if names else [program.seat_name(i) for i in range(n)]
    s.out = [False] * n
    s.zones = {}
    s.piles = {}
    s.made_piles = 0
    for z in program.zones.values():
        s.zones[z.name] = [[] for _ in range(n)] if z.per_player else []
        if z.piles:
            s.piles[z.name] = []
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
    s.tally = [] if tally else None
    _init_variables(program, s)
    if not start:
        return s
    try:
        run(program, s)
    except RulesFault as e:
        e.state = s             # the account up to the error is still worth showing
        raise
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
    """The variables' initial values; one the rules cannot compute is a RulesFault naming it."""
    name = None
    try:
        for name, init in program.var_init.items():
            s.vars[name] = _own(init(s, {}) if callable(init) else init)
        lead = {p: min([p] + partners_of(program.teams, s, p)) for p in s.players} if program.team_vars else {}
        for name, init in program.pvar_init.items():
            # a team variable is computed for its team's first player, and shared
            s.pvars[name] = [_own(init(s, {"p": lead[p] if name in program.team_vars else p})) for p in s.players]
    except Exception as e:
        if not rules_caused(e):
            raise
        raise RulesFault(f"the initial value of '{name}' cannot be computed: {words(e)}") from None


def _own(value):
    """A list kept in a variable is its own (an initial value may name a zone)."""
    return _list(value) if isinstance(value, list) else value


def run(program: Program, s: State) -> None:
    """Advance until a decision is pending or the game is over."""
    if program.counted:
        if s.steps <= program.switch_at:
            _run_counted(program, s)
        else:                   # near the step limit: stop exactly where the closures stop
            _run_steps(program, s, program.reference)
        return
    _run_steps(program, s, program.code)


def run_to(program: Program, s: State, points: dict, came: int | None = None) -> int | None:
    """Advance as run() does, and stop too where the flow comes to a point (Program.points),
    before that instruction, with no decision pending and s.pc there: for a scenario to set a
    position or check expectations; run() or run_to() goes on from there (the instruction at
    s.pc runs first, unless the flow came to it from `came`, a decision just made, and it is a
    point).  `points`: pc -> the spans (see comes_from) the flow must come from to stop there.
    The pc the flow came from when it stopped (a call's return: the call), else None.
    Generated code runs its functions wherever none of them may come to a point
    (`_unstopped`), and the closure instructions of the same layout elsewhere."""
    code = program.reference if program.counted else program.code
    fast = _unstopped(program, points)
    pc, limit, steps = s.pc, program.max_steps, s.steps
    if came is not None and pc in points and _comes(points[pc], came):
        return came
    s.work = 0
    try:
        while pc >= 0:
            if pc in fast and steps <= program.switch_at:
                s.steps = steps
                try:
                    pc = fast[pc](s)            # counts its own steps; comes to no point
                finally:
                    steps = s.steps
                continue
            steps += 1
            if steps > limit:
                raise _too_long(limit)
            depth = len(s.frames)
            back = s.frames[-1][0] if depth else None
            came, pc = pc, code[pc](s)
            if pc in points:
                if len(s.frames) < depth and pc == back:
                    came = pc - 1               # a return goes on after its call (an exit goes elsewhere)
                if _comes(points[pc], came):
                    s.pc = pc
                    return came
    except Exception as e:
        if not rules_caused(e):
            raise
        raise RulesFault(_at(program, _faulted_at(e, pc), e)) from None
    finally:
        s.steps = steps
    _close(program, s)
    return None


def _faulted_at(e, pc: int) -> int:
    """The pc of fault `e`: where generated code noted it was (its effect too), else `pc`."""
    at = getattr(e, "at_pc", None)
    if at is None:
        return pc
    e.effect_index = e.at_effect
    return at


def _unstopped(program: Program, points: dict) -> dict:
    """pc -> the generated function at that entry, for each that may neither run nor return
    to a pc of `points` (Program.reach): run whole, it passes no point a scenario stops at."""
    if not program.counted:
        return {}
    stops = frozenset(points)
    known = program.unstopped.get(stops)
    if known is None:
        known = program.unstopped[stops] = {pc: program.code[pc] for pc, reach in program.reach.items()
                                            if not reach & stops}
    return known


def comes_from(span, came: int | None) -> bool:
    """Whether the flow coming from pc `came` (None: from nowhere, the game's start) comes
    through `span`: None (from anywhere), or (lo, hi, inside): from a pc of lo..hi-1 (inside)
    or from any other (not inside).  The end of a step is also where the flow goes when it
    skips the step, and its start where a loop of its own comes back to."""
    if span is None:
        return True
    lo, hi, inside = span
    return (came is not None and lo <= came < hi) == inside


def _comes(spans, came) -> bool:
    return any(comes_from(span, came) for span in spans)


def _run_steps(program: Program, s: State, code, pc=None) -> None:
    """The run loop of instructions, one step each, from s.pc (or from `pc`, going on with a run
    begun by generated code: the built-ins' work budget, limits.MAX_WORK, goes on too)."""
    work = pc is None
    pc = s.pc if pc is None else pc
    limit = program.max_steps
    steps = s.steps
    if work:
        s.work = 0
    try:
        while pc >= 0:
            steps += 1
            if steps > limit:
                raise _too_long(limit)
            pc = code[pc](s)
    except Exception as e:
        if not rules_caused(e):
            raise
        raise RulesFault(_at(program, pc, e)) from None
    finally:
        s.steps = steps
    _close(program, s)


def _run_counted(program: Program, s: State) -> None:
    """The run loop of generated code: each function runs many instructions, counts them in
    s.steps itself and notes where a fault happened (e.at_pc, e.at_effect)."""
    code = program.code
    switch = program.switch_at
    s.work = 0
    pc = s.pc
    try:
        pc = code[pc](s)            # run() and apply() checked the steps before the first call
        while pc >= 0:
            if s.steps > switch:    # the rest step by step, to stop where the step limit stops the closures
                break
            pc = code[pc](s)
    except Exception as e:
        if not rules_caused(e):
            raise
        raise RulesFault(_at(program, _faulted_at(e, pc), e)) from None
    if pc >= 0:
        _run_steps(program, s, program.reference, pc)
        return
    _close(program, s)


def _too_long(limit: int) -> RulesFault:
    return RulesFault(f"the game took more than {limit} steps; do the rules loop forever?")


def _close(program: Program, s: State) -> None:
    """A game just over gets its result (and its end in the account); a decision asked while
    a choice made together is being revealed is a rules error (runtime/windows.py)."""
    if s.pending is not None and program.window_keys and windows.decided_in_reveal(s):
        raise RulesFault(_at(program, s.pc - 1, RulesFault(
            "a decision inside the steps of a choice made together ('do'), from a procedure or trigger they "
            "run: make it after the choice")))
    if s.over and s.result is None:
        s.result = result(program, s)
        if s.log is not None:
            events.game_over(program, s)


def _at(program, pc, e) -> Problem:
    """The Problem of fault `e` at step `pc`: the ruleset's file, the position of the step
    (or of the effect within it that failed) and its source line."""
    line, col = program.where[pc] if 0 <= pc < len(program.where) else (0, 0)
    index = getattr(e, "effect_index", None)
    if index is not None and pc in program.effect_where:
        line, col = program.effect_where[pc][index]
    source = program.lines[line - 1] if 0 < line <= len(program.lines) else ""
    file = program.file
    if program.real is not None and line:
        file, line = program.real(line)         # an overlay: the file the step came from
    return Problem(file, line, col, f"rules error while running this step: {words(e)}", source)


def apply(program: Program, s: State, index: int, points=None) -> int | None:
    """The pending player picks option `index`; continue to the next decision (or, with
    `points`, to the first of them the flow comes to: run_to, whose answer it returns)."""
    if s.pending is None:
        raise RulesFault("no decision is pending")
    player, options, cid = s.pending
    if not 0 <= index < len(options):
        raise RulesFault(f"option {index} is out of range (0..{len(options) - 1})")
    spec = program.choices[cid]
    value = options[index]
    if s.log is not None:
        label = FACE_DOWN.format(n=index + 1) if _unseen(program, s, player, spec, [value]) else \
            account_text(s, lambda s_, l_: spec.label(s_, l_, value), s.locals)
        if label is not None:
            note(s, {"type": "decision", "player": player, "label": label, "index": index})
    s.locals[spec.var] = value
    s.pending = None
    s.decisions += 1
    if points:
        return run_to(program, s, points, came=s.pc - 1)     # the decision's instruction
    if program.counted and s.steps <= program.switch_at:
        _run_counted(program, s)        # run()'s first case, without the call: every decision comes here
    else:
        run(program, s)


def labels(program: Program, s: State) -> list[str]:
    """Readable labels of the pending options, e.g. 'play Q♠'."""
    if s.pending is None:
        return []
    seat, options, cid = s.pending
    spec = program.choices[cid]
    unseen = _unseen(program, s, seat, spec, options)
    return [FACE_DOWN.format(n=i + 1) if i in unseen else _label(spec.label, s, o, i) for i, o in enumerate(options)]


FACE_DOWN = "face-down card {n}"


def _unseen(program, s, seat, spec, options) -> set:
    """The indexes of the options holding a card the deciding seat cannot see: their labels,
    computed from the cards, could name it, so the seat reads 'face-down card 3' instead."""
    if not _offers_cards(spec):
        return set()            # no need to work out what the seat sees
    return _holding_unseen(spec, options, known_cards(program, s, seat), s)


def _offers_cards(spec) -> bool:
    return bool(spec.cards or spec.card_lists or spec.slots) or offers_piles(spec)


def _label(label, s: State, option, i: int) -> str:
    """An option's label; one the rules cannot compute still names the option."""
    saved = s.work
    try:
        return label(s, s.locals, option)
    except Exception as e:
        if not rules_caused(e):
            raise
        return f"option {i + 1} (its label cannot be shown: {words(e)})"
    finally:
        s.work = saved


def refusal(program: Program, s: State, answer: str):
    """(label, why) of the option a person named (by its label, a word of it, a card's name,
    or a bare number naming a card of that rank) that the choice's list holds but the rules do
    not allow now; `why` is the choice's
    `refusal` text in the rules' own words (None without one).  None when the answer names
    no such option, or names a card the deciding seat cannot see (nothing is told of it)."""
    if s.pending is None:
        return None
    seat, legal, cid = s.pending
    spec = program.choices[cid]
    if spec.candidates is None or not answer.strip():
        return None
    saved = s.work
    try:
        illegal = [o for o in spec.candidates(s, s.locals) if o not in legal]
        number = answer.strip()
        named = _numbered(program, s, seat, spec, illegal, number, listed=False) if digits_only(number) \
            else _named(program, s, seat, spec, illegal, answer, listed=False)
        for i, option, label in named:
            why = spec.refusal(s, s.locals, option) if spec.refusal is not None else None
            return label, why
    except Exception as e:
        if not rules_caused(e):
            raise
        return None
    finally:
        s.work = saved
    return None


def option_named(program: Program, s: State, answer: str) -> int | None:
    """The index of the legal option a person named outright: its label, a word of it, or
    (a card the seat can see) the card's id or name, in any case ('4c', 'Q♠', 'lead 2♣');
    None when no option or several fit."""
    if s.pending is None or not answer.strip():
        return None
    seat, legal, cid = s.pending
    spec = program.choices[cid]
    fits = list(_named(program, s, seat, spec, legal, answer))
    if not fits:
        fits = list(_holding_cards(program, s, seat, spec, legal, answer))
    return fits[0][0] if len(fits) == 1 else None


def options_numbered(program: Program, s: State, number: str) -> list[int]:
    """The indexes of the legal options a bare number could name besides the move of that
    number: one whose label has the number as a word ('bid 4', 'ask Player 3'), or one holding
    a card the deciding seat can see whose id or name is the number and then no other digit
    (its rank: '8' names 8♠ and 8S, '1' does not name 10♠).  A number is always its move;
    where there is none, these are listed (playing/answers.py)."""
    if s.pending is None:
        return []
    seat, legal, cid = s.pending
    return [i for i, _, _ in _numbered(program, s, seat, program.choices[cid], legal, number)]


def _numbered(program, s, seat, spec, options, number, listed=True):
    """(index, option, label) of each of `options` that a bare number names (options_numbered);
    an option holding a card `seat` cannot see is never named by one (`listed` as in _named)."""
    if not digits_only(number):
        return
    hidden = _unseen(program, s, seat, spec, options)
    deck = program.deck
    for i, option in enumerate(options):
        if i in hidden:
            continue
        label = _label(spec.label, s, option, i)
        if number in label.lower().split() or \
                any(_ranked(deck.ids[c], number) or _ranked(deck.display[c], number) for c in option_cards(spec, option)):
            yield i, option, label


def digits_only(text: str) -> bool:
    """ASCII digits only: other scripts' digits ('²', '٣') are no move's number."""
    return text.isascii() and text.isdigit()


def _ranked(name: str, number: str) -> bool:
    """Whether a card's id or name is `number` and then something other than a digit ('8♠')."""
    rest = name[len(number):]
    return name.startswith(number) and not rest[:1].isdigit()


def example_card(program: Program, s: State) -> str | None:
    """The id of a card that a pending option is and the deciding seat can see (the last
    listed), lower-cased as a person types it ('7s'): the prompt's example of naming a move by
    its card."""
    if s.pending is None:
        return None
    seat, legal, cid = s.pending
    spec = program.choices[cid]
    hidden = _unseen(program, s, seat, spec, legal)
    for i, option in reversed(list(enumerate(legal))):
        card = None if i in hidden else option_card(spec, option)
        if card is not None:
            return program.deck.ids[card].lower()
    return None


def _named(program, s, seat, spec, options, answer, listed=True):
    """(index, option, label) of each of `options` that `answer` names: by its label or a word
    of it, or by a card's id or name for a card `seat` can see (an answer must not find out
    where an unseen card lies).  `listed`: the seat is shown these options' labels; when it
    is not (the options the rules refuse), an unseen card's option is left out entirely."""
    word = answer.strip().lower()
    hidden = _unseen(program, s, seat, spec, options)
    several = _cards_named(program, word)
    for i, option in enumerate(options):
        unseen = i in hidden
        if unseen and not listed:
            continue
        label = FACE_DOWN.format(n=i + 1) if unseen else _label(spec.label, s, option, i)
        names = {label.lower(), *label.lower().split()}
        card = None if unseen else option_card(spec, option)
        if card is not None:
            names |= {program.deck.ids[card].lower(), program.deck.display[card].lower()}
        if word in names or several and not unseen and \
                sorted(program.deck.ids[c] for c in option_cards(spec, option)) == several:
            yield i, option, label


def _holding_cards(program, s, seat, spec, options, answer):
    """(index, option, label) of the options holding every card an answer of card names
    lists ('7d', '7d 3c'), among other cards or values: the card played with what it takes,
    asked when no option is just those cards."""
    named = _cards_named(program, answer, least=1)
    if not named:
        return
    hidden = _unseen(program, s, seat, spec, options)
    for i, option in enumerate(options):
        if i in hidden:
            continue
        held = [program.deck.ids[c] for c in option_cards(spec, option)]
        if all(held.count(c) >= named.count(c) for c in named):
            yield i, option, _label(spec.label, s, option, i)


def _cards_named(program: Program, answer: str, least: int = 2) -> list | None:
    """The card ids (sorted) an answer of `least` or more card names lists ('2c 5d qs', '2♣, 5♦'):
    it names the option of several cards that holds just those; None when it is no such list."""
    words = answer.replace(",", " ").split()
    if len(words) < least:
        return None
    deck = program.deck
    index = {name.lower(): card_id for card_id, shown in zip(deck.ids, deck.display) for name in (card_id, shown)}
    if not all(w in index for w in words):
        return None
    return sorted(index[w] for w in words)


def prompt(program: Program, s: State) -> str:
    """What the deciding person is asked (a prompt the rules cannot compute says so)."""
    if not s.pending:
        return ""
    saved = s.work
    try:
        return program.choices[s.pending[2]].prompt(s, s.locals)
    except Exception as e:
        if not rules_caused(e):
            raise
        return f"Choose (the question cannot be shown: {words(e)})"
    finally:
        s.work = saved


def standing(program: Program, s: State) -> list | None:
    """How well each player stands now (higher is better), if the ruleset says."""
    if program.standing is None:
        return None
    return [program.standing(s, {"p": p}) for p in s.players]


def result(program: Program, s: State) -> dict:
    """Who won and each player's score, as the game ends; one the rules cannot compute (a null
    where a value is needed, a null among the winners) is a RulesFault, not a crash later on."""
    try:
        winners = list(program.winners(s, {}) or [])
        scores = [program.score(s, {"p": p}) for p in s.players] if program.score else None
    except Exception as e:
        if not rules_caused(e):
            raise
        raise RulesFault(f"the result cannot be computed: {words(e)}") from None
    if None in winners:
        raise RulesFault("the result cannot be computed: a winner is null (nobody)")
    return {"winners": winners, "scores": scores}


def view(program: Program, s: State, seat: int | None) -> dict:
    """What `seat` may see (None: everything, as an onlooker after the game).

    Hidden cards appear as None, so a view keeps zone sizes but not contents.  A
    variable shows what its visibility allows: a card it holds shows only where the
    seat could see that card itself.
    """
    ids = program.deck.ids
    known = None if seat is None else known_cards(program, s, seat)

    def show(cards, visible):
        return [ids[c] if (visible or c in known) else None for c in cards]

    zones, made = {}, {}
    for z in program.zones.values():
        content = s.zones[z.name]
        if z.per_player:
            zones[z.name] = [show(c, _visible(z.visibility, seat, owner, c)) for owner, c in enumerate(content)]
        elif z.piles:
            zones[z.name] = [show(c, _visible(z.visibility, seat, owner, c)) for owner, c in piles.owners(z, s)]
            made[z.name] = [list(e) for e, c in zip(s.piles[z.name], content) if c]
        else:
            zones[z.name] = show(content, _visible(z.visibility, seat, None, content))
    types = program.symbols.global_vars if program.symbols else {}
    ptypes = program.symbols.player_vars if program.symbols else {}
    shown_vars = {name: _var_shown(program.var_visibility.get(name, "public"), types.get(name), value,
                                   seat, None, known, ids)
                  for name, value in s.vars.items()}
    shown_pvars = {name: [_var_shown(program.pvar_visibility.get(name, "public"), ptypes.get(name), v,
                                     seat, owner, known, ids) for owner, v in enumerate(values)]
                   for name, values in s.pvars.items()}
    v = {"seat": seat, "current": s.current, "deciding": s.pending[0] if s.pending else None,
         "vars": shown_vars, "players": shown_pvars, "eliminated": list(s.out), "zones": zones, "over": s.over}
    if made:
        v["piles"] = made           # zone of piles -> [number, owner] of each pile shown in zones
    if program.table:
        v["table"] = table_values(program, s)
    if s.pending and (seat is None or s.pending[0] == seat):
        v["options"] = labels(program, s)
    return v


def table_values(program: Program, s: State) -> dict:
    """The values of the ruleset's table section (shown to every seat: the ruleset vouches
    that they are public), each player's in a list; None where the rules cannot compute one.
    They spend none of the game's work budget: looking at the table changes nothing."""
    out = {}
    for t in program.table:
        out[t.name] = [_looked_up(s, t.fn, {"p": p}) for p in s.players] if t.per_player else _looked_up(s, t.fn, {})
    return out


def _looked_up(s, fn, locals_):
    """fn's value with the game untouched: its own work budget, the random draws undone."""
    saved, state = s.work, s.rng.state
    s.work = 0
    try:
        return fn(s, locals_)
    except Exception as e:
        if not rules_caused(e):
            raise
        return None
    finally:
        s.work, s.rng.state = saved, state


def known_cards(program: Program, s: State, seat: int) -> set:
    """The cards `seat` can see where they lie: in zones it may look at, on top of a
    zone whose top is shown, revealed, or named by a variable shown to it."""
    known = set(s.revealed)
    for z in program.zones.values():
        for owner, cards in piles.owners(z, s):
            if _visible(z.visibility, seat, owner, cards):
                known.update(cards)
            elif z.visibility == "top" and cards and not z.per_player:
                known.add(cards[-1])
    _declared_cards(program, s, seat, known)
    return known


def _declared_cards(program, s, seat, known):
    """Cards held by variables whose declared visibility shows them to `seat`."""
    sym = program.symbols
    if sym is None:
        return
    for name, vis in program.var_visibility.items():
        if vis == "public" and sym.global_vars.get(name) in CARD_TYPES:
            known.update(_cards_of(s.vars[name]))
    for name, vis in program.pvar_visibility.items():
        if vis in ("public", "owner") and sym.player_vars.get(name) in CARD_TYPES:
            for owner, value in enumerate(s.pvars[name]):
                if vis == "public" or owner == seat:
                    known.update(_cards_of(value))


CARD_TYPES = ("card", "list[card]")


def _cards_of(value) -> list:
    if value is None:
        return []
    return [c for c in value if c is not None] if isinstance(value, list) else [value]


def _var_shown(visibility, typ, value, seat, owner, known, ids):
    """A variable's value as `seat` may see it (None where it may not).  A list of cards
    shows the cards the seat could see and hides the others' number, unless the rules
    declare it public (how many of a rival's cards would win the hand is itself hidden)."""
    if seat is not None and (visibility == "hidden" or (visibility == "owner" and owner != seat)):
        return None
    if typ not in CARD_TYPES or value is None:
        return list(value) if isinstance(value, list) else value
    see_all = seat is None or visibility != "cards"
    if isinstance(value, list):       # only the cards the seat could see: not even how many others
        return [ids[c] if c is not None else None for c in value if see_all or c in known]
    return ids[value] if see_all or value in known else None


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


IMAGINED_TRIES = 50     # deals tried for one that offers the options the seat was shown


def determinize(program: Program, s: State, seat: int, rng) -> State:
    """A copy of the game as `seat` might imagine it, made of what its view holds and of
    fresh chance from `rng`, nothing else of the real game (docs/api.md, "Imagined deals").

    The cards the seat sees stay where they are, and so does everything public; the cards
    it cannot see are dealt at random into the places it cannot see.  Whatever else names
    such a card (a variable, a local of an open step, the journal, an open request) names
    one drawn afresh, so it keeps no place of the real game (a variable's list keeps only
    the cards the seat sees, as its view shows it); the variables the view hides
    start again from their initial values; the future is reseeded.  A pending choice whose
    options name cards the seat cannot see (or another seat's choice) is asked again of
    the imagined deal, and a deal is kept only where it offers the options as the seat saw
    them, so an option means in the imagined game what it can mean to the seat.
    """
    known = known_cards(program, s, seat)
    again = s.pending is not None and _asked_again(program, s, seat, known)
    if again:
        for _ in range(IMAGINED_TRIES):
            c = _dealt(program, s, seat, known, rng, True)
            if _asks_alike(program, c, s, seat, known):
                return c
    return _dealt(program, s, seat, known, rng, again)     # the options, renamed, keep their order


def _dealt(program: Program, s: State, seat: int, known: set, rng, options: bool) -> State:
    """The imagined copy: the hidden cards dealt into the hidden places, taken in an order
    that depends only on which cards they are (not on where they lie), then every other
    name of a hidden card drawn afresh by a second, independent renaming (of the pending
    options too, when `options`: some name a card unseen)."""
    c = s.copy()
    seals = program.window_keys
    if seals:
        for loc in _waiting_locals(c):
            windows.forget(c, loc, seals, seat)       # the others' sealed choices: asked again
    places, hidden = [], []
    for z in program.zones.values():
        for _, cards in piles.owners(z, c):
            for i, card in enumerate(cards):
                if card not in known:
                    places.append((cards, i))
                    hidden.append(card)
    hidden.sort()
    dealt = list(hidden)
    rng.shuffle(dealt)
    for (cards, i), card in zip(places, dealt):
        cards[i] = card
    forgotten = _hidden_values(program, c, seat)
    for values, key, _, _ in forgotten:
        values[key] = None          # named by nothing while the other names are drawn
    if hidden:
        _rename_cards(program, c, s, known, hidden, rng, options)
    for values, key, init, local in forgotten:
        values[key] = _initial(init, c, local)
    c.rng = Rng(state=rng.next())
    c.seed = None          # the real seed would tell every card and the future
    c.stacks = []          # a stacked deck is the real future: the imagined one is random
    c.log = None
    c.tally = None         # what bots imagine is not measured
    return c


def _waiting_locals(c: State) -> list:
    """The locals of the steps running and of every frame waiting for a return, each once."""
    out, seen = [], set()
    for loc in [c.locals] + [loc for _, loc in c.frames]:
        if id(loc) not in seen:
            seen.add(id(loc))
            out.append(loc)
    return out


def window_seats(program: Program, s: State) -> list:
    """The players still to choose in the simultaneous choice pending now, the one asked
    first; [] when the pending choice is not one (docs/language.md, "Choices made together")."""
    if s.pending is None:
        return []
    key = program.choices[s.pending[2]].window
    return windows.waiting_seats(s.locals, key) if key is not None else []


def _asked_again(program: Program, s: State, seat: int, known: set) -> bool:
    """Whether the pending choice must be computed again on an imagined deal: it is another
    seat's (its options are not in this seat's view) or an option names a card unseen."""
    player, options, cid = s.pending
    return player != seat or bool(_holding_unseen(program.choices[cid], options, known, s))


def _holding_unseen(spec, options, known: set, s=None) -> set:
    """The indexes of the options holding a card outside `known` (with the state `s`: of the
    piles they name too)."""
    if not _offers_cards(spec):
        return set()
    return {i for i, o in enumerate(options) if any(c not in known for c in option_cards(spec, o, s))}


def _asks_alike(program: Program, c: State, s: State, seat: int, known: set) -> bool:
    """Ask the imagined copy `c` the pending question again; whether it asks it as the seat
    saw it asked: the same player and choice and, when it is the seat's own, as many
    options, the same where the seat sees them and face down where it does not."""
    player, options, cid = s.pending
    c.pending = None
    c.pc -= 1                   # the choice's instruction (engine.refresh)
    try:
        run(program, c)
    except RulesFault:
        return False
    if c.pending is None or c.pending[0] != player or c.pending[2] != cid:
        return False
    if player != seat:
        return True
    again = c.pending[1]
    if len(again) != len(options):
        return False
    spec = program.choices[cid]
    unseen, unseen_again = _holding_unseen(spec, options, known), _holding_unseen(spec, again, known)
    return unseen == unseen_again and all(a == o for i, (a, o) in enumerate(zip(again, options)) if i not in unseen)


def _hidden_values(program: Program, c: State, seat: int) -> list:
    """The values that the seat's view hides (variables declared hidden, another seat's
    `owner` variable), as (container, key, initial value, locals): the imagined game starts
    them again from their initial values, so it holds no more than the view."""
    out = []
    for name, vis in program.var_visibility.items():
        if vis == "hidden":
            out.append((c.vars, name, program.var_init[name], {}))
    for name, vis in program.pvar_visibility.items():
        if vis in ("hidden", "owner"):
            init, values = program.pvar_init[name], c.pvars[name]
            out.extend((values, p, init, {"p": p}) for p in c.players if vis == "hidden" or p != seat)
    return out


def _initial(init, c: State, local: dict):
    """A variable's initial value, computed again on the imagined state (null if the rules
    cannot compute it there)."""
    if not callable(init):
        return init
    try:
        return init(c, local)
    except Exception as e:
        if not rules_caused(e):
            raise
        return None


def _rename_cards(program: Program, c: State, real: State, known: set, pool: list, rng, options: bool) -> None:
    """Give each hidden card (not in `known`) that something besides the zones names a name
    drawn afresh from `pool` (the hidden cards, in order), one after another in the order
    the state names them: the zones were dealt apart, so a name keeps no place of the real
    game, and which card it was does not matter either (two names of one card still name
    one card).  The names are drawn as they are needed: most states name few such cards.
    A move noted in the journal is named first, by a card that lies in the imagined deal
    where the real one lies (in the zone it was moved to, or not), so that undoing it moves
    as many cards as in the real game: the zones' sizes are public.  The pending options
    are renamed only when `options` (otherwise they name no such card)."""
    rename = {}

    def one(v, fits=None):
        """v's fresh name; with `fits`, one of the unused names for which fits(name) holds,
        where there is one."""
        if isinstance(v, int) and not isinstance(v, bool) and v not in known:
            new = rename.get(v)
            if new is None:
                k = len(rename)                     # a step of Fisher-Yates over the pool
                fitting = [j for j in range(k, len(pool)) if fits(pool[j])] if fits else []
                j = fitting[rng.below(len(fitting))] if fitting else k + rng.below(len(pool) - k)
                pool[k], pool[j] = pool[j], pool[k]
                new = rename[v] = pool[k]
            return new
        return v

    for e in c.journal:     # first: a move noted to undo names a card where the move left it
        if e[0] == "move":
            there, was_there = set(zone_at(c, e[3])), set(zone_at(real, e[3]))
            for v in e[1]:
                one(v, lambda name, inside=v in was_there: (name in there) == inside)

    def many(v):            # a card, or a list (of lists ...) of cards
        return [many(x) for x in v] if isinstance(v, list) else one(v)

    def seen(v):            # a variable's list, as the view shows it: not how many others it held
        return [x for x in v if x in known or x is None] if isinstance(v, list) else one(v)

    sym = program.symbols
    for name, typ in sym.global_vars.items():
        if typ in CARD_TYPES and name in c.vars:
            c.vars[name] = seen(c.vars[name])
    for name, typ in sym.player_vars.items():
        if typ in CARD_TYPES and name in c.pvars:
            c.pvars[name] = [seen(v) for v in c.pvars[name]]
    waiting = [(c.pc, c.locals)] + [(ret, loc) for ret, loc in c.frames]
    seals = program.window_keys
    done = set()
    for pc, loc in waiting:             # each frame's locals, with the names its scope types as cards
        if id(loc) in done:
            continue
        done.add(id(loc))
        for name in program.card_scopes.get(pc, ()):
            if name in loc:
                loc[name] = many(loc[name])
        for key in program.card_cursors:
            if key in loc:
                loc[key][0] = many(loc[key][0])
        if seals:
            windows.rename(loc, seals, many)
    c.journal = [[e[0], many(e[1])] + list(e[2:]) if e[0] == "move" else e for e in c.journal]
    if "piece" in program.card_locals:       # requests carry a card as their piece
        for rec in c.requests:
            rec[4] = many(rec[4])
    if c.pending is not None and options:
        spec = program.choices[c.pending[2]]
        c.pending = (c.pending[0], [renamed_option(spec, o, one) for o in c.pending[1]], c.pending[2])
