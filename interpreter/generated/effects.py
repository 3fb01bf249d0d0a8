"""The effect writers: plain effects as Python statements (moves, deals, sets, ...), each
doing and charging what its effect in runtime/effects.py does; an effect with no writer here
runs the closure back end's effect."""
from __future__ import annotations

from ..closures.layout import EffectLayout, size_check
from ..lang import ir
from ..limits import MAX_LIST, MAX_NUMBER, MAX_STRING


class EffectWriter:
    """The part of the Generator (generated/generator.py) that writes effects: `write_effect_<Kind>`."""

    def effect(self, fn, step):
        place = self.layout.of(step, EffectLayout)
        pc, index = place.pc, place.index
        write = getattr(self, "write_effect_" + type(step).__name__, None)
        if write is not None:
            write(fn, step, pc, index)
            return
        name = self.effect_fn(step)
        self.at(fn, pc, index)
        if isinstance(step, ir.Log):
            fn.add(f"if s.log is not None: {name}(s, l)")
        else:
            fn.add(f"{name}(s, l)")

    def effect_fn(self, step) -> str:
        """The name of the closure back end's effect for `step` (built once: a step's code may
        be written into several functions)."""
        if id(step) not in self.effect_names:
            built = getattr(self.effect_fns, "effect_" + type(step).__name__)(step)
            self.effect_names[id(step)] = self.const(built, "_fx")
        return self.effect_names[id(step)]

    def write_effect_Set(self, fn, step, pc, index):
        if any(isinstance(a.target, ir.EntryTarget) for a in step.items):
            self.at(fn, pc, index)                  # a map's entry: the closure back end's effect
            fn.add(f"{self.effect_fn(step)}(s, l)")
            return
        for a in step.items:
            t = a.target
            if isinstance(t, ir.CurrentTarget):
                fn.add(f"_v = {self.value(fn, a.value, pc, index)}")
                fn.add("if _v is None: _current_nobody()")
                fn.add("s.current = _v")
                continue
            if isinstance(t, ir.GlobalTarget):
                target = f"s.vars[{t.name!r}]"
                if step.add:
                    v = self.expr(fn, a.value, pc, index)
                    fn.add(f"_v = {target} + {v}")
                    fn.add("if not -_MAXN < _v < _MAXN: _too_big(_v)")
                    fn.add(f"{target} = _v")
                    continue
            else:
                values = f"s.pvars[{t.name!r}]"
                if step.add:
                    owner = self.expr(fn, t.owner, pc, index)
                    fn.add(f"_p = {owner}")
                    self.at(fn, pc, index)              # the player's value, before the value added
                    fn.add(f"_b = {values}[_p]")
                    v = self.expr(fn, a.value, pc, index)
                    fn.add(f"_v = _b + {v}")
                    fn.add("if not -_MAXN < _v < _MAXN: _too_big(_v)")
                    fn.add(f"{values}[_p] = _v")
                    if t.team:
                        self.ns["_teams"] = self.src.symbols.teams
                        fn.add(f"for _q in _partners_of(_teams, s, _p): {values}[_q] = _v")
                    continue
                fn.add(f"_v = {self.checked(self.expr(fn, a.value, pc, index), t.type, a.value)}")
                if t.team:                      # the owner after the value; its partners alike
                    self.ns["_teams"] = self.src.symbols.teams
                    fn.add(f"_p = {self.expr(fn, t.owner, pc, index)}")
                    fn.add(f"{values}[_p] = _v")
                    fn.add(f"for _q in _partners_of(_teams, s, _p): {values}[_q] = list(_v) if type(_v) is list else _v")
                    continue
                fn.add(f"{values}[{self.expr(fn, t.owner, pc, index)}] = _v")    # the owner after the value
                continue
            fn.add(f"{target} = {self.checked(self.value(fn, a.value, pc, index), t.type, a.value)}")

    def value(self, fn, node, pc, index=None) -> str:
        """The text of `node`, as `expr`; a function of each element at the top (any, all,
        count, under a `not` or not) is first computed by a loop of statements, which Python
        runs faster than a generator."""
        negate = type(node).__name__ == "Not" and not node.is_const
        inner = node.a if negate else node
        parts = self.src.loop_parts(inner)
        if parts is None:
            return self.expr(fn, node, pc, index)
        self.at(fn, pc, index, node)
        name, xs, x, body = parts
        r = self.fresh("_a")
        if name == "first":
            fn.add(f"{r} = None")
            if isinstance(xs, tuple):           # clockwise from a seat: walked, every seat charged
                fn.add(f"_p = {xs[1]}")           # the seat first, as an argument is
                fn.add("_n = len(s.players)")
                fn.add("_charged(s, s.players)")
                fn.add("_p = _p + 0")
                fn.add("for _i in range(_n):")
                fn.add(f"    {x} = (_p + _i) % _n")
                fn.add(f"    if not s.out[{x}] and ({body}): {r} = {x}; break")
            else:
                fn.add(f"for {x} in {xs}:")
                fn.add(f"    if {body}: {r} = {x}; break")
        elif name == "count":
            fn.add(f"{r} = 0")
            fn.add(f"for {x} in {xs}:")
            fn.add(f"    if {body}: {r} += 1")
        else:
            stop = "True" if name == "any" else "False"
            fn.add(f"{r} = {'False' if name == 'any' else 'True'}")
            fn.add(f"for {x} in {xs}:")
            fn.add(f"    if {'' if name == 'any' else 'not '}({body}): {r} = {stop}; break")
        return f"(not {r})" if negate else r

    def checked(self, text, typ, node=None):
        """`text`, through the size check of its kind (limits.py) unless the value cannot
        break it (a constant, or a card attribute whose every value is within the limit)."""
        kind = size_check(typ)
        if kind is None or (node is not None and self.bounded(node)):
            return text
        return f"_checks[{kind!r}]({text})"

    def bounded(self, node) -> bool:
        if node.is_const:
            v = node.const
            return v is None or isinstance(v, bool) or not isinstance(v, (int, float, str, list)) or \
                (isinstance(v, (int, float)) and -MAX_NUMBER < v < MAX_NUMBER) or \
                (isinstance(v, (str, list)) and len(v) <= MAX_STRING and len(v) <= MAX_LIST)
        if type(node).__name__ == "CardAttr":
            table = self.src.symbols.card_attrs[node.name][1]
            return all(v is None or isinstance(v, bool) or (isinstance(v, str) and len(v) <= MAX_STRING)
                       or (isinstance(v, (int, float)) and -MAX_NUMBER < v < MAX_NUMBER) for v in table)
        return False

    def write_effect_Move(self, fn, step, pc, index):
        if step.cards is not None:
            name = self.effect_fn(step)
            self.at(fn, pc, index)
            fn.add(f"{name}(s, l)")
            return
        if step.card is None:
            self.move_top(fn, step, pc, index, step.count, step.bottom)
            return
        fn.add(f"_c = {self.expr(fn, step.card, pc, index)}")
        fn.add(f"_z = {self.expr(fn, step.src, pc, index)}")
        fn.add("try: _z.remove(_c)")
        fn.add("except ValueError: _not_in_zone()")
        fn.add(f"_d = {self.expr(fn, step.dst, pc, index)}")
        fn.add("_d.insert(0, _c)" if step.bottom else "_d.append(_c)")
        fn.add("if s.log is not None: _moved(s, _z, _d, [_c])")

    def write_effect_Draw(self, fn, step, pc, index):
        self.move_top(fn, step, pc, index, step.count, False)

    def move_top(self, fn, step, pc, index, count, bottom):
        """effects.move_top: the top `count` cards (every card when None), one at a time."""
        fn.add(f"_z = {self.expr(fn, step.src, pc, index)}")
        fn.add(f"_d = {self.expr(fn, step.dst, pc, index)}")
        if count is None:
            fn.add("_k = len(_z)")
        else:
            fn.add(f"_k = max(0, min(int({self.expr(fn, count, pc, index)}), len(_z)))")
        self.at(fn, pc, index)
        fn.add("_charge(s, _k)")
        fn.add("if _k:")
        if bottom:                      # each card in turn under the pile: they keep their order
            fn.add("    _mv = _z[-_k:]; del _z[-_k:]; _d[:0] = _mv")
            fn.add("    if s.log is not None and _z is not _d: _moved(s, _z, _d, _mv[::-1])")
        else:                           # each card in turn on top: reversed (onto itself: unchanged)
            fn.add("    if _z is not _d:")
            fn.add("        _mv = _z[-_k:]; del _z[-_k:]; _mv.reverse(); _d.extend(_mv)")
            fn.add("        if s.log is not None: _moved(s, _z, _d, _mv)")

    def write_effect_Swap(self, fn, step, pc, index):
        """effects.swap: the two zones' contents exchanged; noted in the journal if asked."""
        refs = []
        for ref, z in ((step.a, "_za"), (step.b, "_zb")):
            if ref.owner is None:
                refs.append(f"[{ref.name!r}, None]")
                fn.add(f"{z} = s.zones[{ref.name!r}]")
            else:
                o = z.replace("_z", "_o")
                fn.add(f"{o} = {self.expr(fn, ref.owner, pc, index)}")
                self.at(fn, pc, index)
                fn.add(f"if {o} is None: _nobody_owns({ref.name!r})")
                refs.append(f"[{ref.name!r}, {o}]")
        for ref, z in ((step.a, "_za"), (step.b, "_zb")):
            if ref.owner is not None:
                self.at(fn, pc, index)
                fn.add(f"{z} = s.zones[{ref.name!r}][{z.replace('_z', '_o')}]")
        self.at(fn, pc, index)
        fn.add("_charge(s, len(_za) + len(_zb))")
        fn.add("if s.log is not None and _za is not _zb: _moved(s, _za, _zb, _za); _moved(s, _zb, _za, _zb)")
        fn.add("_za[:], _zb[:] = list(_zb), list(_za)")
        if step.journal:
            tag = "None" if step.tag is None else self.expr(fn, step.tag, pc, index)
            fn.add(f"s.journal.append(['swap', {refs[0]}, {refs[1]}, {tag}])")

    def write_effect_Gather(self, fn, step, pc, index):
        """effects.gather: every card of the zones (each player's, for a per-player zone) onto
        the destination, each zone charged as it is gathered."""
        fn.add(f"_d = {self.expr(fn, step.dst, pc, index)}")
        self.at(fn, pc, index)
        for name, per_player, piles in step.zones:
            fn.add(f"for _z in s.zones[{name!r}]:" if per_player or piles else f"for _z in (s.zones[{name!r}],):")
            fn.add("    s.work += len(_z)")
            fn.add("    if s.work > _MAXW: _charge(s, 0)")
            fn.add("    if _z is not _d:")
            fn.add("        if s.log is not None: _moved(s, _z, _d, _z)")
            fn.add("        _d.extend(_z); del _z[:]")
        for name, _, piles in step.zones:
            if piles:
                fn.add(f"if not any(_d is _z for _z in s.zones[{name!r}]): _piles_cleared(s, {name!r})")

    def write_effect_Deal(self, fn, step, pc, index):
        """effects.deal: `count` cards each, one at a time round the seats from `first`, while
        the source lasts."""
        fn.add(f"_z = {self.expr(fn, step.src, pc, index)}")
        if step.players is not None:
            fn.add(f"_seats = list({self.expr(fn, step.players, pc, index)})")
        else:
            fn.add("_seats = [_p for _p in s.players if not s.out[_p]]")
        fn.flush()
        fn.add("if _seats:")
        with fn.block():
            if step.first is not None:
                fn.add(f"_st = {self.expr(fn, step.first, pc, index)}")
            else:
                fn.add("_st = _seats[0]")
            fn.add("if _st in _seats: _i = _seats.index(_st); _seats = _seats[_i:] + _seats[:_i]")
            fn.add(f"_hands = s.zones[{step.zone!r}]")
            fn.add(f"_k = max(0, min(int({self.expr(fn, step.count, pc, index)}), len(_z)))")
            self.at(fn, pc, index)
            fn.add("_left = min(_k * len(_seats), len(_z))")
            fn.add("_charge(s, _left)")
            fn.add("_m2 = len(_seats)")
            fn.add("for _j in range(_left): _hands[_seats[_j % _m2]].append(_z.pop())")
            fn.add("if s.log is not None: _dealt(s, _z, _hands, _seats, _left)")

    def write_effect_Sort(self, fn, step, pc, index):
        fn.add(f"_z = {self.expr(fn, step.zone, pc, index)}")
        self.at(fn, pc, index)
        fn.add("_charge(s, len(_z) * 4)")
        self.at(fn, pc, index, step.key, {"_z": (step.var,)})
        fn.add("if _z:")
        fn.add("    _last = _z[-1]")
        fn.add(f"    _z.sort(key=lambda _card: {self.src.bound(step.key, step.var, '_card')})")
        fn.add(f"    l[{step.var!r}] = _last")      # the closure back end's key leaves the last card there
