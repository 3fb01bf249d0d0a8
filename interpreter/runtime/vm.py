"""The instructions of the virtual machine that runs compiled rulesets.

Each factory takes (pc, resolve) once the code is laid out, and returns
`ins(state) -> next pc`.  A negative result stops the run loop: a decision is
pending, or the game is over.  Everything an instruction needs to continue lives
in the state (program counter, frames, scopes, open requests), never in Python's
call stack, so a paused game is plain data.
"""
from __future__ import annotations

from ..errors import RulesFault
from .state import next_seat
from . import effects
from ..limits import MAX_LIST


def run_effects(batch):
    fns = tuple(f for f, _ in batch)

    def factory(pc, at):
        nxt = pc + 1
        if len(fns) == 1:
            f = fns[0]

            def one(s):
                f(s, s.locals)
                return nxt
            return one

        def many(s):
            l = s.locals
            try:
                for f in fns:
                    f(s, l)
            except Exception as e:     # say which of the effects failed (costs nothing otherwise)
                e.effect_index = fns.index(f)
                raise
            return nxt
        return many
    return factory


def jump(label):
    return lambda pc, at: (lambda s, t=at(label): t)


def jump_unless(cond, label):
    def factory(pc, at):
        target, nxt = at(label), pc + 1
        return lambda s: nxt if cond(s, s.locals) else target
    return factory


def jump_unless_after(hook, cond, label):
    """jump_unless, after hook(state) (what the end of a round measures), in the same step."""
    def factory(pc, at):
        target, nxt = at(label), pc + 1

        def jump(s):
            hook(s)
            return nxt if cond(s, s.locals) else target
        return jump
    return factory


def push_scope(kind, exit_label, hook=None):
    """Enter a scope (the game, a round); `hook(state)` runs as a round begins (the account
    notes it: events.round_started)."""
    def factory(pc, at):
        exit_pc, nxt = at(exit_label), pc + 1

        def push(s):
            s.scopes.append((kind, len(s.frames), exit_pc, len(s.requests)))
            if kind == "round":
                s.rounds += 1
                if hook is not None:
                    hook(s)
            return nxt
        return push
    return factory


def pop_scope():
    def factory(pc, at):
        nxt = pc + 1

        def pop(s):
            s.scopes.pop()
            return nxt
        return pop
    return factory


def exit_to(kind):
    return lambda pc, at: (lambda s: unwind(s, kind))


def unwind(s, kind) -> int:
    """end_turn / end_round / end_game: close the innermost scope of `kind` (and the scopes,
    requests and frames opened inside it); the pc where it goes on."""
    for i in range(len(s.scopes) - 1, -1, -1):
        k, depth, exit_pc, open_requests = s.scopes[i]
        if k in ("window", "reveal"):           # (runtime/windows.py)
            raise RulesFault(f"end_{kind} inside the steps of a choice made together ('do'), from a procedure "
                             "or trigger they run: set a variable, and end it after the choice")
        if k == kind:
            del s.scopes[i + 1:]
            del s.requests[open_requests:]
            if len(s.frames) > depth:
                s.locals = s.frames[depth][1]
                del s.frames[depth:]
            return exit_pc
    raise RulesFault(f"end_{kind} outside any {kind}")


def call(label, payload: dict):
    items = tuple(payload.items())

    def factory(pc, at):
        target, ret = at(label), pc + 1

        def call(s):
            l = s.locals
            new = {k: f(s, l) for k, f in items}
            s.frames.append((ret, l))
            s.locals = new
            return target
        return call
    return factory


def ret():
    def factory(pc, at):
        def ret(s):
            pc_, l = s.frames.pop()
            s.locals = l
            return pc_
        return ret
    return factory


def halt():
    def factory(pc, at):
        def halt(s):
            s.over = True
            s.pc = pc
            return -1
        return halt
    return factory


def iter_start(key, coll):
    def factory(pc, at):
        nxt = pc + 1

        def start(s):
            l = s.locals
            l[key] = [list(coll(s, l)), 0]
            return nxt
        return start
    return factory


def iter_next(key, var, end_label):
    def factory(pc, at):
        end, nxt = at(end_label), pc + 1

        def step(s):
            l = s.locals
            it = l[key]
            items, i = it
            if i >= len(items):
                return end
            l[var] = items[i]
            it[1] = i + 1
            return nxt
        return step
    return factory


def turns_start(key, first, count):
    def factory(pc, at):
        nxt = pc + 1

        def start(s):
            l = s.locals
            if first is not None:
                s.current = first(s, l)
            elif s.current is None or s.out[s.current]:
                s.current = next((p for p in s.players if not s.out[p]), None)
            l[key] = [0, int(count(s, l)) if count else -1]
            return nxt
        return start
    return factory


def turns_check(key, until, end_label, turn_end_label):
    def factory(pc, at):
        end, turn_end, nxt = at(end_label), at(turn_end_label), pc + 1

        def check(s):
            l = s.locals
            it = l[key]
            if (until is not None and until(s, l)) or it[0] == it[1] or s.current is None:
                return end
            it[0] += 1
            _begin_turn(s, turn_end)
            return nxt
        return check
    return factory


def _begin_turn(s, turn_end):
    """Open the turn's scope: end_turn unwinds to here and continues at turn_end."""
    s.scopes.append(("turn", len(s.frames), turn_end, len(s.requests)))


def turns_next(nxt_fn, top_label, start_label):
    """The next turn: the next player (`next`, or the seat to the left), or the turns from
    their start again when a step of the turn said `restart_turns`."""
    def factory(pc, at):
        top, start = at(top_label), at(start_label)

        def advance(s):
            if s.locals.pop("#restart", False):
                return start
            s.current = nxt_fn(s, s.locals) if nxt_fn else next_seat(s, s.current)
            return top
        return advance
    return factory


def turns_again(start_label, top_label):
    """The next turn of a fixed order, or the order from its start again (`restart_turns`)."""
    def factory(pc, at):
        top, start = at(top_label), at(start_label)
        return lambda s: start if s.locals.pop("#restart", False) else top
    return factory


def choose(cid, options, var, where, by, otherwise_label, memo=False, unset=()):
    """A decision (s.pending) among the options where `where` holds, or the jump to
    `otherwise` when there is none: the names the choice binds (`unset`) are null there."""
    def factory(pc, at):
        other = at(otherwise_label) if otherwise_label is not None else None
        nxt = pc + 1

        def choose(s):
            l = s.locals
            opts = options(s, l)
            if where is not None:
                legal = []
                saved = l.get(var)
                if memo:
                    l["#memo"] = {}         # option-invariant calls of `where`, computed once
                for o in opts:
                    l[var] = o
                    if where(s, l):
                        legal.append(o)
                l[var] = saved
                if memo:
                    del l["#memo"]
                opts = legal
            else:
                opts = list(opts)      # never the zone itself: the options must not change under the chooser
            if not opts:
                if other is None:
                    raise RulesFault("no legal option for this choice, and the step has no 'otherwise'")
                for name in unset:
                    l[name] = None
                return other
            player = by(s, l) if by is not None else s.current
            if player is None:
                raise RulesFault("nobody is to make this choice: outside 'turns' a choice needs 'by'"
                                 if by is None else "'by' names nobody (null) here")
            s.pending = (player, opts, cid)
            s.pc = nxt
            return -1
        return choose
    return factory


def among_options(kinds, legal_only=True):
    """fn(state, locals) -> the options of a choice among kinds: [k, value, ...] for each
    combination of kind k's lists (a word option is [k]), where its `when` and (legal_only)
    its `where` hold with its names bound.  kinds: [(when, ((name, list fn), ...), where)]."""
    def options(s, l):
        out = []
        for k, (when, names, where) in enumerate(kinds):
            if when is not None and not when(s, l):
                continue
            combos = [[k]]
            for i, (name, lst) in enumerate(names):
                if i == 0:
                    values = list(lst(s, l))
                    combos = [[k, v] for v in values]
                else:                       # a later list may read the names before it
                    combos = _extended(s, l, combos, names[:i], lst)
                if len(combos) > MAX_LIST:
                    too_many_options()
            effects.charge(s, len(combos))
            if where is not None and legal_only:
                saved = {name: l.get(name) for name, _ in names}
                legal = []
                for c in combos:
                    for i, (name, _) in enumerate(names):
                        l[name] = c[i + 1]
                    if where(s, l):
                        legal.append(c)
                l.update(saved)
                combos = legal
            out.extend(combos)
        if len(out) > MAX_LIST:
            too_many_options()
        return out
    return options


def too_many_options():
    raise RulesFault(f"a choice would have more than {MAX_LIST:,} options")


def _extended(s, l, combos, before, lst) -> list:
    """Each combination extended by each element of `lst`, computed with the combination's
    names (`before`) bound."""
    saved = {name: l.get(name) for name, _ in before}
    out = []
    try:
        for c in combos:
            for j, (name, _) in enumerate(before):
                l[name] = c[j + 1]
            out.extend(c + [v] for v in lst(s, l))
            if len(out) > MAX_LIST:
                break
    finally:
        l.update(saved)
    return out


def among_text(kinds, default):
    """fn(state, locals, option) -> the text of an option of a choice among kinds (its
    label, or its refusal): kinds is [(names, fn(state, locals) or None)]; `default(state,
    option)` where a kind gives none."""
    def text(s, l, option):
        names, fn = kinds[option[0]]
        if fn is None:
            return default(s, option)
        saved = {name: l.get(name) for name in names}
        for i, name in enumerate(names):
            l[name] = option[i + 1]
        try:
            return fn(s, l)
        finally:
            l.update(saved)
    return text


def pick(var, kinds):
    """After a choice among kinds: bind the picked option's names and go on at its kind's
    steps.  kinds: [(names, label)]; the option is taken out of the locals."""
    def factory(pc, at):
        table = [(names, at(label)) for names, label in kinds]

        def pick_(s):
            l = s.locals
            option = l.pop(var)
            names, target = table[option[0]]
            for i, name in enumerate(names):
                l[name] = option[i + 1]
            return target
        return pick_
    return factory


def turns_order_check(key, until, end_label, turn_end_label):
    """Next player of a fixed order, skipping anyone put out of the game meanwhile."""
    def factory(pc, at):
        end, turn_end, nxt = at(end_label), at(turn_end_label), pc + 1

        def check(s):
            l = s.locals
            it = l[key]
            items = it[0]
            while it[1] < len(items) and s.out[items[it[1]]]:
                it[1] += 1
            if it[1] >= len(items) or (until is not None and until(s, l)):
                return end
            s.current = items[it[1]]
            it[1] += 1
            _begin_turn(s, turn_end)
            return nxt
        return check
    return factory


# A request record: [from, to, status, redirect target, piece]; status is
# 'open', 'refused' or 'redirect'.  Triggers change it with refuse / redirect.

def request_start(frm, to):
    def factory(pc, at):
        nxt = pc + 1

        def start(s):
            l = s.locals
            s.requests.append([frm(s, l), to(s, l), "open", None, None])
            return nxt
        return start
    return factory


def request_ask(dispatch_label, piece):
    """Raise the request's event, with from, to and piece, for the triggers to answer."""
    def factory(pc, at):
        target = at(dispatch_label) if dispatch_label is not None else None
        nxt = pc + 1

        def ask(s):
            rec = s.requests[-1]
            l = s.locals
            payload = {"from": rec[0], "to": rec[1]}
            if piece is not None:
                rec[4] = payload["piece"] = piece(s, payload)
            if target is None:
                return nxt
            s.frames.append((nxt, l))
            s.locals = payload
            return target
        return ask
    return factory


def request_check(var, answer_label, top_label, end_label):
    def factory(pc, at):
        answer, top, end = at(answer_label), at(top_label), at(end_label)

        def check(s):
            rec = s.requests[-1]
            l = s.locals
            status = rec[2]
            if status == "open":
                l["from"], l["to"], l["piece"] = rec[0], rec[1], rec[4]
                return answer
            if status == "refused":
                s.requests.pop()
                l[var] = "refused"
                return end
            rec[1], rec[2], rec[3] = rec[3], "open", None
            if rec[1] == rec[0]:
                s.requests.pop()
                l[var] = "lapsed"
                return end
            return top
        return check
    return factory


def request_done(var):
    def factory(pc, at):
        nxt = pc + 1

        def done(s):
            s.requests.pop()
            s.locals[var] = "answered"
            return nxt
        return done
    return factory
