"""Small random rulesets, written from a seed, for differential tests of the back ends.

`write(seed)` gives the data of one ruleset (a dict, ready for yaml.safe_dump): a deck, a few
zones, variables of every type, options, functions, procedures, events with triggers, and a
flow whose rounds take turns in which players choose.  The steps are drawn from the whole
language: if/while/repeat/for_each/turns/choose (with where, otherwise, by)/set/add/move/
draw/deal/shuffle/sort/gather/swap/reveal/eliminate/log/undo_journal/clear_journal/
end_turn/end_round/end_game/call/emit/request (with refuse and redirect in its triggers),
with expressions of every type built from the names in scope.

The writer keeps what it writes valid (types, null tests, names bound where they are read,
`by` outside turns) and finite (loops count with a variable of their own, turns have a count
or an order, procedures call only later procedures, triggers emit nothing), so that most
rulesets pass the checker and their games end; the checker has the last word, and a game
may still end in a rules error (a card no longer where a move expects it, a division by
zero, a variable set to null and then read), which both back ends must report alike.
"""
from __future__ import annotations

import random

NUM, BOOL, STR, PLAYER, CARD, CARDS, PLAYERS = "number", "bool", "string", "player", "card", "list[card]", \
    "list[player]"


class Scope:
    """Where steps are written: the local names bound there and what the context allows."""

    def __init__(self, current: bool, turns: bool = False, round_: bool = False, trigger: bool = False,
                 locals_=None, depth: int = 0, proc: int = -1, request: bool = False):
        self.current = current          # `current` names a player here
        self.turns = turns              # inside turns: end_turn leaves the turn
        self.round = round_             # inside a round: end_round leaves it
        self.trigger = trigger          # inside a trigger: no emit, request, turns
        self.locals = dict(locals_ or {})
        self.depth = depth
        self.proc = proc                # the procedure being written (-1: none): it calls only later ones
        self.request = request          # inside a request's trigger: refuse and redirect answer it

    def inner(self, **changes) -> "Scope":
        s = Scope(self.current, self.turns, self.round, self.trigger, self.locals, self.depth + 1, self.proc,
                  self.request)
        for k, v in changes.items():
            setattr(s, "locals" if k == "locals_" else k, dict(v) if k == "locals_" else v)
        return s

    def names(self, typ) -> list[str]:
        return [n for n, t in self.locals.items() if t == typ]


class Writer:
    """One random ruleset from `seed`."""

    MAX_DEPTH = 3

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.seed = seed
        self.counters = 0
        self.procs = []                 # (name, needs current, quiet)
        self.fresh_names = 0

    # -- small helpers -------------------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def pick(self, *items):
        return self.r.choice(items)

    def fresh(self, prefix: str) -> str:
        self.fresh_names += 1
        return f"{prefix}{self.fresh_names}"

    def counter(self) -> str:
        self.counters += 1
        return f"k{self.counters}"

    # -- expressions -----------------------------------------------------------------------------
    def num(self, sc: Scope, d: int = 0, text: bool = False) -> str:
        r = self.r
        leaf = d >= 2 or self.chance(0.35)
        if leaf:
            options = [str(r.randint(0, 5)), "n", "r", "num_players", "options.size"]
            options += sc.names(NUM)
            options += [f"{c}.value" for c in sc.names(CARD)]
            options += [f"{self.player(sc, d + 1, text)}.score", f"count({self.cards(sc, d + 1, text)})"]
            options += [f"(top(pile)?.value ?? {r.randint(0, 3)})", f"(first({self.cards(sc, 2, text)})?.value ?? n)"]
            return r.choice(options)
        k = r.randint(0, 15)
        a = lambda: self.num(sc, d + 1, text)     # noqa: E731
        if k == 0:
            return f"{a()} + {a()}"
        if k == 1:
            return f"{a()} - {a()}"
        if k == 2:
            return f"{a()} * {r.randint(0, 3)}"
        if k == 3:
            return f"({a()}) // {r.randint(1, 3)}" if self.chance(0.9) else f"({a()}) // ({a()})"
        if k == 4:
            return f"({a()}) % {r.randint(2, 4)}"
        if k == 5:
            return f"({a()} if {self.cond(sc, d + 1, text)} else {a()})"
        if k == 6:
            z = self.cards(sc, d + 1, text)
            return f"sum({z}, {self.lam(sc)} => {self.lam_last}.value)"
        if k == 7:
            z = self.cards(sc, d + 1, text)
            x = self.lam(sc)
            return f"(max({z}, {x} => {x}.value) if count({z}) > 0 else 0)"
        if k == 8:
            return f"min(players, {self.lam(sc, 'q')} => {self.lam_last}.score)"
        if k == 9:
            return f"abs({a()})"
        if k == 10 and sc.names(CARD):
            return f"worth({r.choice(sc.names(CARD))})"
        if k == 11:
            return f"matches({a()})"
        if k == 12:
            return f"lead({self.player(sc, d + 1, text)})"
        if k == 13 and not text:
            return self.pick("random([1, 2, 3])", f"count({self.cards(sc, d + 1, text)}) + random([0, 1])")
        if k == 14:
            z = self.cards(sc, d + 1, text)
            x = self.lam(sc)
            return f"sum({z}, {x} => matches({x}.value))"     # a lambda's name passed into a function
        if k == 15:
            return f"len({self.pick('players', 'active', self.cards(sc, d + 1, text))})"
        return self.num(sc, 2, text)

    def lam(self, sc: Scope, base: str = "c") -> str:
        """The name a lambda binds: its own, or (when free here) the one the functions' bodies
        bind too (`sum(pile, c => matches(c.value))`, where matches binds c as well)."""
        name = base if base not in sc.locals and self.chance(0.4) else self.fresh(base)
        self.lam_last = name
        return name

    def cond(self, sc: Scope, d: int = 0, text: bool = False) -> str:
        r = self.r
        if d >= 2 or self.chance(0.3):
            options = ["flag", "not flag", f"n > {r.randint(0, 4)}", "options.mode == 'a'", "options.mode != 'c'",
                       f"r == {r.randint(1, 2)}", "word == 'w'", f"count(pile) > {r.randint(0, 3)}", "true",
                       f"(pick?.value ?? {r.randint(0, 4)}) > 1", "top(stock)?.kind == 'x'"]
            options += [f"{self.player(sc, d + 1, text)}.mark"]
            options += [f"{c}.kind == 'x'" for c in sc.names(CARD)]
            return r.choice(options)
        k = r.randint(0, 10)
        if k == 0:
            left, op = self.num(sc, d + 1, text), r.choice(['<', '<=', '==', '!=', '>', '>='])
            return f"{left} {op} {self.num(sc, d + 1, text)}"
        if k == 1:
            return f"({self.cond(sc, d + 1, text)}) and ({self.cond(sc, d + 1, text)})"
        if k == 2:
            return f"({self.cond(sc, d + 1, text)}) or ({self.cond(sc, d + 1, text)})"
        if k == 3:
            return f"not ({self.cond(sc, d + 1, text)})"
        if k == 4:
            z = self.cards(sc, d + 1, text)
            x = self.lam(sc)
            return f"{r.choice(['any', 'all'])}({z}, {x} => {x}.value > {r.randint(0, 4)})"
        if k == 5 and sc.names(CARD):
            return f"{r.choice(sc.names(CARD))} in {self.cards(sc, d + 1, text)}"
        if k == 6:
            return "top(pile) != null and top(pile).value > 2"
        if k == 7:
            return f"{self.player(sc, d + 1, text)} == {self.player(sc, d + 1, text)}"
        if k == 8:
            return f"has({self.player(sc, d + 1, text)}, {r.randint(1, 4)})"
        if k == 9:
            return f"pick != null and pick.value >= {r.randint(1, 4)}"
        word = self.text_expr(sc, d + 1, text)
        return f"{word} == " + ("'b'" if word == "options.mode" else "'x'")     # a value the option can take

    def text_expr(self, sc: Scope, d: int = 0, text: bool = False) -> str:
        options = ["word", "'x'", "options.mode", f"text({self.num(sc, d + 1, text)})", "top(stock)?.kind ?? 'none'"]
        options += [f"{c}.kind" for c in sc.names(CARD)]
        if d < 2:
            options += [f"word + '{self.r.choice('xyz')}'" if self.chance(0.5) else "'y' + text(n)"]
        return self.r.choice(options)

    def player(self, sc: Scope, d: int = 0, text: bool = False) -> str:
        options = ["player(0)", "players[1]", "who"]
        if sc.current:
            options += ["current", "current", "current.left", "current.right"]
        options += sc.names(PLAYER) * 2
        if d < 2 and not text and self.chance(0.1):
            options.append("random(players)")
        if d < 2 and self.chance(0.1):
            options.append(f"{self.player(sc, d + 1, text)}.left")
        return self.r.choice(options)

    def cards(self, sc: Scope, d: int = 0, text: bool = False) -> str:
        """A list of cards: a zone or a computed list."""
        options = ["pile", "stock", "bin", "picks", f"{self.player(sc, d + 1, text)}.hand",
                   f"{self.player(sc, d + 1, text)}.side"]
        if d < 2:
            x = self.lam(sc)
            options += [f"filter({self.zone(sc, d + 1)}, {x} => {x}.value {self.r.choice(['<', '>', '=='])} "
                        f"{self.r.randint(1, 4)})"]
        return self.r.choice(options)

    def zone(self, sc: Scope, d: int = 0, shared_only: bool = False) -> str:
        """A zone named outright (what effects take)."""
        options = ["pile", "stock", "bin"]
        if not shared_only:
            options += [f"{self.player(sc, 2)}.hand", f"{self.player(sc, 2)}.side"]
        return self.r.choice(options)

    def card_value(self, sc: Scope) -> str:
        """A card, possibly null (for set and move: {card})."""
        options = ["top(pile)", "top(stock)", "null", f"first({self.cards(sc, 1)})"]
        options += sc.names(CARD) * 3
        return self.r.choice(options)

    def template(self, sc: Scope) -> str:
        parts = [self.r.choice(["see", "now", "then", "so"])]
        for _ in range(self.r.randint(1, 3)):
            k = self.r.randint(0, 4)
            if k == 0:
                parts.append("{" + self.num(sc, 1, text=True) + "}")
            elif k == 1:
                parts.append("{" + self.player(sc, 1, text=True) + "}")
            elif k == 2:
                parts.append("{" + self.cards(sc, 1, text=True) + "}")
            elif k == 3:
                parts.append("{" + self.text_expr(sc, 1, text=True) + "}")
            elif self.chance(0.8):
                parts.append("{" + self.cond(sc, 1, text=True) + "}")
            else:       # a text the rules cannot always compute: shown as such, the game goes on
                parts.append("{10 // n}")
        return " ".join(parts)

    # -- effects ---------------------------------------------------------------------------------
    def effect(self, sc: Scope) -> dict | str:
        r = self.r
        k = r.randint(0, 21)
        if k <= 2:
            targets = {}
            for _ in range(r.randint(1, 2)):
                t = r.randint(0, 8)
                if t == 0:
                    targets["n"] = self.num(sc)
                elif t == 1:
                    targets["flag"] = self.cond(sc)
                elif t == 2:
                    targets["word"] = self.text_expr(sc)
                elif t == 3:
                    x = self.lam(sc, "q")
                    targets["who"] = f"first(players, {x} => {x}.score > 1)" if self.chance(0.2) else self.player(sc)
                elif t == 4:
                    targets["pick"] = self.card_value(sc)
                elif t == 5:
                    targets["picks"] = self.pick(self.cards(sc), "picks + " + self.cards(sc, 1), "[]")
                elif t == 6:
                    targets[f"{self.player(sc)}.score"] = self.num(sc)
                elif t == 7:
                    targets[f"{self.player(sc)}.mark"] = self.cond(sc)
                else:           # a card only its owner sees (a planning bot's imagined deal renames it)
                    targets[f"{self.player(sc)}.best"] = self.card_value(sc)
            return {"set": targets}
        if k == 4 and self.chance(0.3):        # values that grow to the limits of numbers, texts, lists
            return {"set": self.pick({"n": "n * n + 2"}, {"word": "word + word"}, {"picks": "picks + picks + pile"})}
        if k <= 4:
            out = {"n": self.num(sc)}
            if self.chance(0.5):
                out[f"{self.player(sc)}.score"] = self.pick("1", "-1", self.num(sc, 1))
            return {"add": out}
        if k == 5:
            move = {"from": self.zone(sc), "to": self.zone(sc), "count": self.pick("1", "2", self.num(sc, 1))}
            if self.chance(0.3):
                move["position"] = "bottom"
            return {"move": move}
        if k == 6:
            src = self.zone(sc)
            x = self.lam(sc)
            move = {"cards": f"filter({src}, {x} => {x}.value {r.choice(['<', '>'])} {r.randint(1, 4)})",
                    "from": src, "to": self.zone(sc)}
            if self.chance(0.4):
                move["journal"] = self.pick(True, "'t'")
            return {"move": move}
        if k == 7:
            draw = {"from": self.pick("stock", "pile"), "to": f"{self.player(sc)}.hand"}
            if self.chance(0.5):
                draw["count"] = self.pick("2", self.num(sc, 1))
            return {"draw": draw}
        if k == 8:
            deal = {"from": "stock", "to": self.pick("hand", "side"), "count": self.pick("1", "2", self.num(sc, 2))}
            if self.chance(0.4):
                deal["first"] = self.player(sc)
            if self.chance(0.2):
                deal["players"] = self.pick("active", "players", f"filter(players, {self.lam(sc, 'q')} => "
                                                                  f"{self.lam_last}.score >= 0)")
            return {"deal": deal}
        if k == 9:
            return {"shuffle": self.zone(sc)}
        if k == 10:
            return {"sort": {"zone": self.zone(sc), "by": self.pick("card.value", "card.kind", "0 - card.value",
                                                                   "card.value % 2", "10 // card.value")}}
        if k == 11:
            return {"gather": {"to": "stock", **({"from": ["pile", "hand"]} if self.chance(0.5) else {})}}
        if k == 12:
            swap = {"a": self.zone(sc), "b": self.zone(sc)}
            if swap["a"] == swap["b"]:
                swap["b"] = "bin" if swap["a"] != "bin" else "pile"
            if self.chance(0.4):
                swap["journal"] = self.pick(True, "'t'")
            return {"swap": swap}
        if k == 13:
            return {"reveal": self.pick("pile", f"{self.player(sc)}.hand", *sc.names(CARD))}
        if k == 14:
            if self.chance(0.5):
                return {"log": {"text": self.template(sc), "to": self.player(sc, text=True)}}
            return {"log": self.template(sc)}
        if k == 15:
            return self.pick("undo_journal", {"undo_journal": {"tag": "'t'"}}, "clear_journal")
        if k == 16:
            if self.chance(0.1):        # any card from any zone: it may not be there (a rules error)
                return {"move": {"card": self.card_value(sc), "from": self.zone(sc), "to": self.zone(sc)}}
            z = self.zone(sc)
            card = self.pick(f"top({z})", f"bottom({z})", f"first({z})", f"{z}[0]")
            return {"if": f"count({z}) > 0", "then": [{"move": {"card": card, "from": z, "to": self.zone(sc)}}]}
        if k == 17 and sc.names(CARD):
            c, z = r.choice(sc.names(CARD)), self.zone(sc)
            move = {"move": {"card": c, "from": z, "to": self.zone(sc), "journal": self.pick(True, "'t'")}}
            return {"if": f"{c} in {z}", "then": [move]}
        return {"log": self.template(sc)}

    # -- steps -----------------------------------------------------------------------------------
    def steps(self, sc: Scope, n: int | None = None) -> list:
        n = self.r.randint(1, 4) if n is None else n
        out = []
        for _ in range(n):
            out.extend(self.step(sc))
        return out

    def step(self, sc: Scope) -> list:
        """One step (or a few that belong together, as a choice and its move)."""
        r = self.r
        deep = sc.depth >= self.MAX_DEPTH
        k = r.randint(0, 25)
        if deep or k <= 7:
            return [self.effect(sc)]
        if k <= 9:
            step = {"if": self.cond(sc), "then": self.steps(sc.inner())}
            if self.chance(0.5):
                step["else"] = self.steps(sc.inner())
            return [step]
        if k == 10:
            c = self.counter()
            return [{"set": {c: 0}}, {"while": f"{c} < {r.randint(1, 3)}",
                                      "do": [{"add": {c: 1}}] + self.steps(sc.inner())}]
        if k == 11:
            c = self.counter()
            return [{"set": {c: 0}}, {"repeat": self.steps(sc.inner()) + [{"add": {c: 1}}],
                                      "until": f"{c} >= {r.randint(1, 3)}"}]
        if k <= 13:
            if self.chance(0.5):
                var = self.pick("p", self.fresh("p"))
                items = self.pick("players", "active", f"clockwise({self.player(sc)})")
                return [{"for_each": var, "in": items, "do": self.steps(sc.inner(locals_={**sc.locals, var: PLAYER}))}]
            var = self.pick("c", self.fresh("c"))
            if self.chance(0.3):            # moving away the very cards the loop walks through
                z = self.zone(sc)
                return [{"for_each": var, "in": z, "do": [{"move": {"card": var, "from": z, "to": self.zone(sc)}}]
                         + self.steps(sc.inner(locals_={**sc.locals, var: CARD}), r.randint(0, 1))}]
            return [{"for_each": var, "in": self.cards(sc),
                     "do": self.steps(sc.inner(locals_={**sc.locals, var: CARD}))}]
        if k <= 16:
            return self.choose(sc)
        if k == 17:
            if sc.turns:
                return [{"if": self.cond(sc), "then": [self.effect(sc), "end_turn"]}]
            if sc.round and self.chance(0.5):
                return [{"if": self.cond(sc), "then": ["end_round"]}]
            return [{"if": f"n > {r.randint(6, 12)}", "then": ["end_game"]}]
        if k == 18 and not sc.trigger and sc.turns:
            return [{"if": "count(active) > 2 and " + self.cond(sc, 1),
                     "then": [{"eliminate": "current"}, "end_turn"]}]
        if k <= 20:
            callable_ = [name for i, (name, needs, quiet) in enumerate(self.procs)
                         if i > sc.proc and (sc.current or not needs) and (quiet or not sc.trigger)]
            if callable_:
                return [{"call": r.choice(callable_)}]
            return [self.effect(sc)]
        if k <= 22 and not sc.trigger and sc.current:
            if sc.names(CARD) and self.chance(0.5):
                return [{"emit": "drop", "with": {"thing": r.choice(sc.names(CARD)), "by": self.player(sc)}}]
            return [{"emit": "ping", "with": {"who": self.player(sc), "amount": self.num(sc, 1)}}]
        if k == 23 and not sc.trigger and sc.current:
            return [self.request(sc)]
        if k == 24 and sc.round and not sc.trigger and sc.depth < 2 and (not sc.turns or self.chance(0.3)):
            return [self.turns(sc)]       # inside turns too: a turn within a turn
        return [self.effect(sc)]

    def choose(self, sc: Scope) -> list:
        """A choice, and the steps after it that use the name it binds.  The options, `by` and
        `otherwise` are read where the name is not bound yet; `where`, `label` and the steps
        after it, where it is."""
        r = self.r
        before = sc.inner()
        before.depth = sc.depth
        by = None if sc.current and self.chance(0.7) else self.player(before)
        var = self.pick("x", self.fresh("x"))
        if by is not None and var in by:
            var = self.fresh("x")
        k = r.randint(0, 5)
        if k == 5:
            return [self.choose_among(sc, before, by)]
        step, otherwise, guard, needs_where = {}, None, None, False
        if k <= 1:          # a card from a hand, then moved away
            hand = f"{by or 'current'}.hand"
            step = {"choose": hand, "as": var}
            typ = CARD
            if self.chance(0.6):
                otherwise = self.steps(before.inner(), r.randint(1, 2)) + (["end_turn"] if sc.turns else [])
                if not sc.turns:
                    guard = f"{var} != null and {var} in {hand}"
            elif not sc.turns or self.chance(0.5):
                otherwise = [{"log": "nothing to play"}]
                guard = f"{var} != null and {var} in {hand}"
            # after `otherwise` the name is null: read it guarded, mostly with a `where`
            needs_where = guard is not None and self.chance(0.9)
        elif k == 2:        # words
            words = r.sample(["a", "b", "c", "d"], r.randint(1, 3))
            step = {"choose": words, "as": var}
            typ = STR
            if self.chance(0.4):
                otherwise = [{"log": "no word"}]
        elif k == 3:        # numbers
            step = {"choose": r.sample([0, 1, 2, 3, 5], r.randint(1, 3)), "as": var}
            typ = NUM
        else:               # players
            x = self.lam(before, "q")
            step = {"choose": self.pick("players", "active", f"filter(players, {x} => {x}.score >= 0)"), "as": var}
            typ = PLAYER
            otherwise = [{"log": "nobody"}]
            needs_where = True
        if by is not None:
            step["by"] = by
        if otherwise is not None:
            step["otherwise"] = otherwise
        sc.locals[var] = typ                # bound from here on
        after = sc.inner()
        if k <= 1:
            if needs_where or self.chance(0.5):
                step["where"] = self.pick(f"{var}.value >= {r.randint(1, 3)}", f"{var}.kind != 'y'",
                                          self.cond(after, 1), f"10 // {var}.value > 1")
            step["label"] = self.pick("play {" + var + "}", "play {" + var + "} for {10 // " + var + ".value}")
            to = self.pick("pile", "bin", f"{self.player(after)}.side")
            follow = [{"move": {"card": var, "from": hand, "to": to}}]
        elif k == 2:
            if otherwise is not None:
                step["where"] = f"{var} != 'b' or {self.cond(after, 1)}"
            follow = [{"if": f"{var} == '{words[0]}'", "then": self.steps(after, r.randint(1, 2))}]
        elif k == 3:
            step["label"] = self.pick("take {" + var + "}", "take {" + var + "} of {12 // " + var + "}")
            follow = [{"add": {"n": var}}]
        else:
            step["where"] = f"{var} != {self.player(after)}" if self.chance(0.5) else f"{var}.score < 99"
            follow = [{"add": {f"{var}.score": "1"}}]
        if guard is not None or (otherwise is not None and k == 4):
            follow = [{"if": guard or f"{var} != null", "then": follow}]
        if self.chance(0.3):
            step["prompt"] = "Choose well"
        return [step] + follow

    def choose_among(self, sc: Scope, before: Scope, by) -> dict:
        """A choice among kinds of option: a card of a hand (moved away), a word, and a
        player with a number (one option per combination), each with its own steps."""
        r = self.r
        hand = f"{by or 'current'}.hand"
        card, who, k = self.fresh("x"), self.fresh("x"), self.fresh("x")
        in_card = before.inner(locals_={**before.locals, card: CARD})
        in_pair = before.inner(locals_={**before.locals, who: PLAYER, k: NUM})
        kinds = [{"from": hand, "as": card, "label": "play {" + card + "}",
                  "do": [{"move": {"card": card, "from": hand, "to": self.pick("pile", "bin")}}]
                  + self.steps(in_card, r.randint(0, 1))},
                 {"option": "pass", **({"when": self.cond(before, 1)} if self.chance(0.5) else {}),
                  "do": self.steps(before.inner(), r.randint(0, 2))},
                 {"from": {who: self.pick("players", "active"), k: f"range(1, {r.randint(2, 4)})"},
                  "do": [{"add": {f"{who}.score": k}}]}]
        if self.chance(0.5):
            kinds[0]["where"] = self.pick(f"{card}.value >= {r.randint(1, 3)}", self.cond(in_card, 1))
        if self.chance(0.5):
            kinds[2]["where"] = f"{k} > 1 or {who} != {self.player(in_pair)}"
        r.shuffle(kinds)
        step = {"choose": kinds, "otherwise": [{"log": "nothing"}]}
        if by is not None:
            step["by"] = by
        return step

    def request(self, sc: Scope) -> dict:
        step = {"request": "ask", "from": "current", "to": self.pick("current.left", "current.right", "player(0)"),
                "piece": "top(to.hand)", "as": self.pick("outcome", self.fresh("o"))}
        if self.chance(0.8):
            inner = sc.inner(locals_={**sc.locals, "from": PLAYER, "to": PLAYER})
            step["answer"] = [{"swap": {"a": "from.hand", "b": "to.hand",
                                        **({"journal": "from"} if self.chance(0.5) else {})}},
                              {"log": "{from} and {to} swap"}] + self.steps(inner, self.r.randint(0, 1))
        return step

    def turns(self, sc: Scope) -> dict:
        r = self.r
        inner = sc.inner(current=True, turns=True)
        t = {}
        k = r.randint(0, 3)
        if k == 0:
            t["order"] = self.pick("players", "active", "clockwise(player(1))", "filter(active, q => q.score < 9)")
        else:
            t["count"] = str(r.randint(1, 8)) if self.chance(0.8) else "2 + num_players"
            if self.chance(0.4):
                # never `who`, which may be null: turns passed on from a null current fault at a
                # place the back ends name differently (test_backends: TURN_FAULT_PLACE)
                t["first"] = self.pick("player(0)", "players[1]", "player(0).left", "random(players)")
            if self.chance(0.3):
                t["next"] = self.pick("current.right", "current.left.left", "current.left")
        if self.chance(0.4):
            t["until"] = self.cond(inner, 1)
        t["do"] = self.choose(inner) + self.steps(inner, r.randint(0, 3))
        return {"turns": t}

    # -- the ruleset -------------------------------------------------------------------------------
    def ruleset(self) -> dict:
        r = self.r
        players = self.pick(2, 3, {"min": 2, "max": 4, "default": 3})
        if self.chance(0.5):
            deck = {"product": {"suit": [{"id": "C", "kind": "x"}, {"id": "H", "kind": "y"}],
                                "rank": [{"id": str(i), "value": i} for i in range(1, r.randint(5, 7))]},
                    "id": "{rank}{suit}", "zone": "stock"}
        else:
            # every value and kind the expressions compare with is in the deck (a comparison with
            # one no card has is a problem at the check)
            deck = {"cards": [{"id": f"k{v}", "value": v, "kind": "xyz"[v % 3]} for v in range(1, 5)]
                    + [{"id": f"c{i}", "value": r.randint(0, 5), "kind": r.choice("xyz")}
                       for i in range(r.randint(0, 4))],
                    "copies": r.randint(1, 3), "zone": "stock"}
        data = {
            "name": f"random{self.seed}",
            "players": players,
            "options": {"mode": {"description": "a word", "choices": ["a", "b", "c"], "default": "a"},
                        "size": {"description": "a number", "choices": [1, 2, 3], "default": 2}},
            "deck": deck,
            "zones": {"stock": {"visibility": "hidden"}, "pile": {"visibility": self.pick("public", "top")},
                      "bin": {"visibility": "hidden"},
                      "hand": {"per_player": True, "visibility": "owner"},
                      "side": {"per_player": True, "visibility": "public"}},
            "variables": {"n": 0, "r": 0, "flag": False, "word": "'w'",
                          "who": {"type": "player", "initial": "player(0)"},
                          "pick": {"type": "card", "initial": None, "visibility": self.pick("public", "hidden")},
                          "picks": {"type": "list[card]", "initial": "[]"}},
            "player_variables": {"score": 0, "mark": False,
                                 "best": {"type": "card", "initial": None, "visibility": "owner"}},
            "functions": {
                "worth": {"params": ["c"], "expr": "c.value * 2 + (1 if options.mode == 'b' else 0)"},
                "matches": {"params": ["x"], "expr": "count(pile, c => c.value == x)"},
                "lead": {"params": ["p"], "expr": "p.score + count(p.hand)"},
                "has": {"params": ["p", "v"], "expr": "any(p.hand, c => c.value == v)"},
            },
            "events": {"ping": {"with": {"who": "player", "amount": "number"}},
                       "drop": {"with": {"thing": "card", "by": "player"}},
                       "ask": {"with": {"from": "player", "to": "player", "piece": "card"}}},
        }
        procedures = {}
        for i in range(r.randint(0, 3)):
            self.procs.append((f"proc{i}", self.chance(0.6), self.chance(0.5)))
        for i, (name, needs, quiet) in enumerate(self.procs):
            # a quiet procedure emits nothing and makes no request: triggers may call it
            procedures[name] = self.steps(Scope(current=needs, round_=True, trigger=quiet, proc=i))
        if procedures:
            data["procedures"] = procedures
        triggers = []
        for _ in range(r.randint(0, 4)):
            on = self.pick("ping", "drop", "ask", "turn_start", "turn_end", "round_start", "round_end")
            locals_ = {"ping": {"who": PLAYER, "amount": NUM}, "drop": {"thing": CARD, "by": PLAYER},
                       "ask": {"from": PLAYER, "to": PLAYER}}.get(on, {})
            sc = Scope(current=on not in ("round_start", "round_end"), trigger=True, locals_=locals_,
                       request=on == "ask")
            t = {"on": on}
            if on == "ask":
                t["when"] = self.pick("piece != null and piece.value > 2", "piece == null", "to.score > from.score")
            elif self.chance(0.5):
                t["when"] = self.cond(sc, 1)
            t["do"] = self.steps(sc, r.randint(1, 2))
            if on == "ask":
                t["do"].append(self.pick("refuse", {"redirect": "to.left"}, "refuse", {"redirect": "from.left"},
                                         {"redirect": "null"}))
            triggers.append(t)
        if triggers:
            data["triggers"] = triggers
        top = Scope(current=False, round_=True)
        round_ = [{"add": {"r": 1}}]
        if self.chance(0.7):
            round_ += [{"gather": {"to": "stock"}}, {"shuffle": "stock"},
                       {"deal": {"from": "stock", "to": "hand", "count": r.randint(1, 3)}}]
        round_ += self.steps(top, r.randint(0, 2)) + [self.turns(top)] + self.steps(top, r.randint(0, 2))
        if self.chance(0.3):
            round_.append(self.turns(top))
        flow = {"max_steps": 20000, "round": round_, "until": f"r >= {r.randint(1, 4)}"}
        if self.chance(0.6):
            flow["setup"] = self.steps(Scope(current=False), r.randint(1, 2))
        if self.chance(0.4):
            flow["end"] = self.steps(Scope(current=False), r.randint(1, 2))
        data["flow"] = flow
        data["variables"].update({f"k{i}": 0 for i in range(1, self.counters + 1)})
        data["result"] = {"winners": self.pick("active", "filter(players, p => p.score == max(players, q => q.score))",
                                               "[]"),
                          "score": self.pick("p.score", "p.score + count(p.hand)"),
                          **({"standing": "p.score"} if self.chance(0.5) else {})}
        return data


def write(seed: int, max_steps: int = 20_000) -> dict:
    """The data of the random ruleset of `seed` (its flow's step limit: `max_steps`)."""
    data = Writer(seed).ruleset()
    data["flow"]["max_steps"] = max_steps
    _give_ids(data, random.Random(seed * 7 + 1))
    return data


def _give_ids(data: dict, r: random.Random) -> None:
    """An id on about one step in five (a step with an id is an instruction of its own: the
    back ends must lay out and count such steps alike).  Its own random numbers, so that
    the rulesets are those of the seeds without ids."""
    from interpreter.source.overlay import _step_lists
    n = 0
    for _, steps in list(_step_lists(data)):
        for step in steps:
            if isinstance(step, dict) and r.random() < 0.2:
                n += 1
                step["id"] = f"step{n}"


def options(seed: int) -> dict | None:
    """The options random ruleset `seed` is compiled with: the defaults, or one changed."""
    return random.Random(-seed).choice([None, None, {"mode": "b"}, {"mode": "c"}, {"size": "1"}, {"size": "3"}])
