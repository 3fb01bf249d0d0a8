"""A fixed action space for a ruleset, the same in every turn.

The engine's options are values in a list that changes every turn.  Here each option is
spelled as a short sequence of *tokens* from one vocabulary fixed by the ruleset: a card
by its id (`card:Q♠`, copies of a card are one token), a kind of a choice among kinds by
its name (`kind:draw`), a value by its type (`number:3`, `text:red`, `player:2`,
`yes`, `no`, `null`), and `end`, which closes a list.  A list of cards is its cards in
deck order, then `end`; a kind holding values is its values, led by the kind's token only
where another kind of the same choice holds values of the same types.

An option whose first token no other option shares is one action.  Where options share a
beginning (a card played alone, or with the cards it captures), the player picks a token at
a time until one option is left (`end` picks the one the tokens so far spell out): the
same player acts again, and the mask shows what may follow.
"""
from __future__ import annotations

import re

from ..errors import UsageError, format_problem
from ..lang.types import type_of_value
from ..runtime import piles
from ..runtime.engine import known_cards, option_cards
from ..runtime.program import Program, offers_piles

END, NULL, YES, NO = "end", "null", "yes", "no"
MAX_NUMBER_SPAN = 1000          # every whole number between the ruleset's least and greatest up to this
MAX_TEXT_LENGTH = 40            # texts of the ruleset taken as the values a choice may offer

_QUOTED = re.compile(r"'([^'\\{}]{1,40})'|\"([^\"\\{}]{1,40})\"")
_INTEGER = re.compile(r"(?<![\w.])-?\d{1,6}(?![\w.])")


class ActionSpace:
    """The tokens of a ruleset (its `names`, indexed by action id) and how an option of a
    decision is spelled in them."""

    def __init__(self, program: Program, players: int, face_down: bool = False):
        self.program = program
        ids = program.deck.ids
        self.card_token = [f"card:{i}" for i in ids]
        names = list(dict.fromkeys(self.card_token)) + [END]
        types = _value_types(program)
        if any(t in types for t in ("null", "any")) or not types <= {"card", "list[card]"}:
            names.append(NULL)
        if "bool" in types:
            names += [YES, NO]
        if "player" in types:
            names += [f"player:{p}" for p in range(players)]
        numbers, texts = _constants(program)
        if "number" in types:
            names += [f"number:{n}" for n in numbers]
        if "string" in types:
            names += [f"text:{t}" for t in texts]
        names += sorted({f"kind:{k}" for spec in program.choices for k in spec.kinds})
        self.face_down = face_down
        if face_down:
            names += [f"face-down:{i}" for i in range(1, len(ids) + 1)]
        self.names = names
        self.index = {name: i for i, name in enumerate(names)}
        self._card_id = [self.index[t] for t in self.card_token]
        self._led = [_led_kinds(spec) for spec in program.choices]

    def __len__(self) -> int:
        return len(self.names)

    def spell(self, state, seat: int, cid: int, options: list) -> list[tuple]:
        """Each option of the pending decision as a tuple of token ids."""
        spec = self.program.choices[cid]
        hidden = self._hidden(state, seat, spec, options)
        out = []
        for i, option in enumerate(options):
            if i in hidden:
                out.append((self._token(f"face-down:{hidden[i]}", spec),))
            elif spec.slots is not None:
                kind = option[0]
                led = (self.index[f"kind:{spec.kinds[kind]}"],) if kind in self._led[cid] else ()
                values = tuple(t for typ, v in zip(spec.types[kind], option[1:]) for t in self._value(typ, v, spec, state))
                out.append(led + values)
            else:
                out.append(self._value(spec.types[0], option, spec, state))
        return out

    def _hidden(self, state, seat, spec, options) -> dict:
        """Options holding a card the deciding seat cannot see: spelled by their place among
        such options (a card's id would tell what the seat may not know)."""
        if not (spec.cards or spec.card_lists or spec.slots or offers_piles(spec)):
            return {}
        known = known_cards(self.program, state, seat)
        unseen = [i for i, o in enumerate(options) if any(c not in known for c in option_cards(spec, o, state))]
        if unseen and not self.face_down:
            raise UsageError(f"a decision of {self.program.name} offers cards its player cannot see: "
                             "load the game with face_down=True to give such options actions of their own")
        return {i: n for n, i in enumerate(unseen, 1)}

    def _value(self, typ: str, value, spec, state=None) -> tuple:
        """The tokens of one value of an option (`state`: where a pile's cards are read)."""
        if typ in ("any", "null") and value is not None:        # a type the checker left open
            typ = type_of_value(value)
        if value is None:
            return (self.index[NULL],) if NULL in self.index else self._outside(value, spec)
        if typ == "card":
            return (self._card_id[value],)
        if typ == "pile":               # its cards, as a set: a pile's number means nothing from game to game
            return self._value("list[card]", list(piles.cards_of(state, value)), spec)
        if typ.startswith("list["):
            inner = typ[5:-1]
            parts = [self._value(inner, v, spec) for v in value]
            if inner in ("card", "list[card]"):
                parts.sort()            # a set of cards, not a sequence
            return tuple(t for p in parts for t in p) + (self.index[END],)
        if typ == "bool":
            return (self.index[YES if value else NO],)
        if typ == "player":
            return (self._token(f"player:{value}", spec),)
        if typ == "number":
            n = int(value) if float(value).is_integer() else value
            return (self._token(f"number:{n}", spec),)
        return (self._token(f"text:{value}", spec),)

    def _token(self, name: str, spec) -> int:
        found = self.index.get(name)
        if found is None:
            self._outside(name, spec)
        return found

    def _outside(self, value, spec):
        message = (f"an option of this choice ({value}) is outside the action space of {self.program.name}: "
                   "its tokens are spelled from the ruleset's constants (docs/api.md, 'The action space')")
        if self.program.rules is None:
            raise UsageError(message)
        problem = self.program.rules[1].problem(spec.where, message)
        error = UsageError(format_problem(problem))
        error.problem = problem
        raise error


def _led_kinds(spec) -> frozenset:
    """The kinds whose options start with the kind's token: a word, or values of the same
    types as another kind's."""
    if spec.slots is None:
        return frozenset()
    led = set()
    for k, types in enumerate(spec.types):
        if not types or sum(1 for t in spec.types if t == types) > 1:
            led.add(k)
    return frozenset(led)


def _value_types(program: Program) -> set:
    """Every type an option's value may have, lists opened up."""
    out = set()

    def add(t):
        out.add(t)
        if t.startswith("list["):
            add(t[5:-1])
    for spec in program.choices:
        for t in spec.types:
            for one in (t if isinstance(t, tuple) else (t,)):
                add(one)
    return out


def _constants(program: Program) -> tuple[list, list]:
    """The numbers and texts a choice may offer, read from each `choose` step as written:
    its literal lists and the constants of its expressions, the values of the options and
    of the card attributes they name.  The numbers fill the span from 0 (or the least) to
    the greatest, and reach the number of cards in the deck (a bid of up to every card)."""
    numbers, texts = {0, len(set(program.deck.ids)), program.players[1]}, set()
    data = program.rules[0] if program.rules is not None else None
    attrs = program.deck.attrs
    functions = data.get("functions") if isinstance(data, dict) else None
    for spec in program.choices:
        step = _at(data, spec.where)
        for s in _with_functions(_written(step), functions if isinstance(functions, dict) else {}):
            texts.update(a or b for a, b in _QUOTED.findall(s))
            numbers.update(int(n) for n in _INTEGER.findall(s))
            for name in _OPTION.findall(s):
                value = program.options.get(name)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    numbers.add(int(value))
                elif isinstance(value, str) and value.lstrip("-").isdigit():
                    numbers.add(int(value))
            for name in _ATTR.findall(s):
                if name in attrs:
                    for v in attrs[name][1]:
                        (numbers if isinstance(v, int) and not isinstance(v, bool) else texts).add(v)
        for v in _listed(step):
            if isinstance(v, bool):
                continue
            (numbers if isinstance(v, (int, float)) else texts).add(v)
    small = [n for n in numbers if isinstance(n, int) and abs(n) <= MAX_NUMBER_SPAN]
    numbers.update(range(min(small), max(small) + 1))
    return sorted(numbers), sorted(str(t) for t in texts)


_OPTION = re.compile(r"options\.(\w+)")
_ATTR = re.compile(r"\.(\w+)")
_TEXTS = ("label", "prompt", "refusal", "do", "then", "else", "otherwise", "log", "say")


def _with_functions(texts: list, functions: dict) -> list:
    """The texts, and the expressions of the ruleset's functions they call (`ranks()`)."""
    out, seen, todo = [], set(), list(texts)
    while todo:
        s = todo.pop()
        out.append(s)
        for name in _CALL.findall(s):
            f = functions.get(name)
            if name not in seen and isinstance(f, dict) and isinstance(f.get("expr"), str):
                seen.add(name)
                todo.append(f["expr"])
    return out


_CALL = re.compile(r"(\w+)\(")


def _at(data, path):
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _written(node) -> list[str]:
    """The expressions of a choose step (its texts and the steps it runs left out)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() if k not in _TEXTS for s in _written(v)]
    if isinstance(node, list):
        return [s for v in node for s in _written(v)]
    return []


def _listed(node) -> list:
    """The values of the literal lists a choose step offers (`choose: [hit, stand]`)."""
    if isinstance(node, dict):
        out = []
        for k, v in node.items():
            if k in _TEXTS:
                continue
            if k in ("choose", "from", "in") and isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
                out += v
            else:
                out += _listed(v)
        return out
    if isinstance(node, list):
        return [x for v in node for x in _listed(v)]
    return []
