"""Stage 3b: build the card tables of a ruleset's deck.

A deck is every combination of its `product` dimensions (e.g. suit x rank), or
an explicit `cards` list, times `copies`, minus `exclude`.  Each card becomes an
int; each attribute a tuple indexed by it, so reading `card.points` at run time
is one tuple lookup.  Derived attributes are expressions evaluated here, once.
"""
from __future__ import annotations

import itertools
import math
import re

from ..errors import did_you_mean
from ..lang.ir import Deck
from ..limits import MAX_CARDS
from ..lang.symbols import Symbols
from ..lang.syntax import ExprError, parse
from ..lang.types import ANY, BOOL, CARD, NUM, STR, type_of_value
from .expressions import ExprChecker

FIELD = re.compile(r"\{([A-Za-z_][A-Za-z_0-9]*)\}")


def localize(value, lang: str, languages: list):
    """Pick the text for `lang` from a {language: text} mapping; plain values pass through."""
    if isinstance(value, dict):
        for code in (lang, *languages):
            if code in value:
                return value[code]
        return next(iter(value.values()))
    return value


def build_deck(spec: dict, lang: str, languages: list, options: dict, report, option_values=None,
               misshapen_options=frozenset()) -> Deck | None:
    """Card tables for `spec`; problems go to report(path, message).  `option_values`: what
    each option of listed choices can take (a derived attribute compares options too);
    `misshapen_options`: options the schema refused, read as stand-ins."""
    rows = _base_rows(spec, lang, languages, report)
    if rows is None:
        return None
    id_tpl = spec.get("id")
    disp_tpl = localize(spec.get("display"), lang, languages)
    for r, row in enumerate(rows):
        row["id"] = _fill(id_tpl, row, ("deck", "id"), report) if id_tpl else row.get("id", str(r))
    excluded = {str(x) for x in spec.get("exclude", [])}
    ids = [row["id"] for row in rows]
    for i, x in enumerate(spec.get("exclude", [])):
        if str(x) not in ids:
            report(("deck", "exclude", i), f"excluded card '{x}' is not in the deck{did_you_mean(str(x), ids)}")
    rows = [row for row in rows if row["id"] not in excluded]
    rows = [dict(row) for row in rows for _ in range(spec.get("copies", 1))]
    if not rows:
        report(("deck",), "the deck has no cards")
        return None
    for row in rows:
        row["display"] = _fill(disp_tpl, row, ("deck", "display"), report) if disp_tpl else row["id"]
    attrs = _tables(rows)
    names = Symbols(options=options, card_attrs=attrs, option_values=option_values or {},
                    misshapen_options=misshapen_options)
    _derive(spec.get("attributes", {}), rows, names, report)
    return Deck(attrs["id"][1], attrs["display"][1], attrs)


def _base_rows(spec, lang, languages, report):
    if ("product" in spec) == ("cards" in spec):
        report(("deck",), "a deck needs exactly one of 'product' (dimensions) or 'cards' (a list)")
        return None
    if "cards" in spec:
        if len(spec["cards"]) * spec.get("copies", 1) > MAX_CARDS:
            report(("deck", "cards"), f"the deck would have more than {MAX_CARDS} cards")
            return None
        return [_item(c, "id", lang, languages) for c in spec["cards"]]
    dims = list(spec["product"].items())
    size = math.prod(len(items) for _, items in dims) * spec.get("copies", 1)
    if size > MAX_CARDS:
        report(("deck", "product"), f"the deck would have {size} cards; the limit is {MAX_CARDS}")
        return None
    rows = []
    for combo in itertools.product(*[items for _, items in dims]):
        row = {}
        for (dim, _), item in zip(dims, combo):
            values = _item(item, dim, lang, languages)
            for key, value in values.items():
                if key in row and key != dim:
                    report(("deck", "product", dim), f"attribute '{key}' is given by two dimensions; rename one")
                    return None
                row[key] = value
        rows.append(row)
    return rows


def _item(item, dim, lang, languages) -> dict:
    if not isinstance(item, dict):
        return {dim: item}
    values = {k: localize(v, lang, languages) for k, v in item.items() if k != "id"}
    values[dim] = item["id"]
    return values


def _fill(template, row, path, report) -> str:
    def field(m):
        name = m.group(1)
        if name not in row:
            report(path, f"template field '{{{name}}}' is not a card attribute{did_you_mean(name, row)}")
            return "?"
        return str(row[name])
    return FIELD.sub(field, str(template))


def _tables(rows) -> dict:
    names = []
    for row in rows:
        names.extend(k for k in row if k not in names)
    attrs = {}
    for name in names:
        values = tuple(row.get(name) for row in rows)
        present = {type_of_value(v) for v in values if v is not None}
        typ = present.pop() if len(present) == 1 else ANY
        attrs[name] = (typ, values)
    return attrs


def _derive(derived: dict, rows, names: Symbols, report):
    """Evaluate each derived attribute for every card, in the order written: the expression
    is checked with `card` bound to each card in turn, and must fold to a constant.  One
    that cannot be derived is reported once and stays a name without values (UNDERIVED):
    the expressions that use it add no problem of their own."""
    attrs = names.card_attrs
    for name, text in derived.items():
        checker = ExprChecker(names)
        try:
            tree = parse(text)
            c = checker.check_tree(tree, {"card": CARD})
            nodes = [checker.check_tree(tree, {"card": CARD}, consts={"card": i}) for i in range(len(rows))]
        except ExprError as e:
            report(("deck", "attributes", name), e.message, e.offset)
            attrs[name] = UNDERIVED
            continue
        if not all(n.is_const for n in nodes):
            if not _reads_stand_in(tree, names):
                report(("deck", "attributes", name),
                       "a derived attribute may use only the card's attributes and the options")
            attrs[name] = UNDERIVED
            continue
        values = tuple(n.const for n in nodes)
        typ = c.type if c.type in (NUM, BOOL, STR) else type_of_value(values[0])
        attrs[name] = (typ, values)


# A derived attribute whose expression is wrong: its type unknown, no table of values (the
# ruleset is not built, so nothing reads one).
UNDERIVED = (ANY, None)


def _reads_stand_in(tree, names: Symbols) -> bool:
    """Whether an expression reads an attribute that could not be derived, or an option the
    schema refused: a problem said elsewhere, that makes this one no constant."""
    return any(t.data == "attr" and (names.card_attrs.get(t.children[1].value) is UNDERIVED
                                     or t.children[1].value in names.misshapen_options)
               for t in tree.iter_subtrees())
