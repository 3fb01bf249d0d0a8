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
    copies = _copies(spec, options, option_values, misshapen_options, report)
    rows = _base_rows(spec, lang, languages, report, copies)
    if rows is None:
        return None
    id_tpl = spec.get("id")
    disp_tpl = localize(spec.get("display"), lang, languages)
    derived = spec.get("attributes", {})
    fields = FIELD.findall(str(disp_tpl)) if disp_tpl is not None else []
    for r, row in enumerate(rows):
        extra = row.pop(EXTRA, False)       # a listed card beside a product: its own id
        row["id"] = _fill(id_tpl, row, ("deck", "id"), report) if id_tpl and not extra else row.get("id", str(r))
        if extra and "display" not in row and not all(f in row or f in derived for f in fields):
            row["display"] = row["id"]      # own display where the template does not fit it
        row[SHOWN] = extra and "display" in row
    excluded = {str(x) for x in spec.get("exclude", [])}
    ids = [row["id"] for row in rows]
    for i, x in enumerate(spec.get("exclude", [])):
        if str(x) not in ids:
            report(("deck", "exclude", i), f"excluded card '{x}' is not in the deck{did_you_mean(str(x), ids)}")
    rows = [row for row in rows if row["id"] not in excluded]
    rows = [dict(row) for row in rows for _ in range(row.pop(COPIES, 1) * copies)]
    if not rows:
        report(("deck",), "the deck has no cards")
        return None
    given = [row.pop(SHOWN) for row in rows]
    later = any(f in derived for f in fields)      # the display names a derived attribute
    for row, own in zip(rows, given):
        if not own:
            row["display"] = row["id"] if later or not disp_tpl else _fill(disp_tpl, row, ("deck", "display"), report)
    attrs = _tables(rows)
    names = Symbols(options=options, card_attrs=attrs, option_values=option_values or {},
                    misshapen_options=misshapen_options)
    _derive(derived, rows, names, report)
    if later:
        _displayed_after_derivation(disp_tpl, given, attrs, report)
    return Deck(attrs["id"][1], attrs["display"][1], attrs)


EXTRA, SHOWN, COPIES = "#extra", "#shown", "#copies"     # row keys that are no attribute


def _copies(spec, options, option_values, misshapen_options, report) -> int:
    """The deck's `copies`: a number, or an expression of the options worked out now."""
    copies = spec.get("copies", 1)
    if not isinstance(copies, str):
        return copies
    checker = ExprChecker(Symbols(options=options, option_values=option_values or {},
                                  misshapen_options=misshapen_options))
    try:
        node = checker.check_tree(parse(copies), {})
    except ExprError as e:
        report(("deck", "copies"), f"{e.message}: the deck's copies may read only the options (options.NAME)",
               e.offset)
        return 1
    value = node.const if node.is_const else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or not 1 <= value <= 100:
        report(("deck", "copies"), "the deck's copies must come to a whole number from 1 to 100 under the options "
                                   "in force" + ("" if node.is_const else " (it may read only the options)"))
        return 1
    return int(value)


def _displayed_after_derivation(template, given, attrs, report):
    """The display of each card whose template names a derived attribute, filled now that
    the derived values are known (a card that gives its own display keeps it)."""
    shown = list(attrs["display"][1])
    for i, own in enumerate(given):
        if not own:
            values = {name: table[i] for name, (_, table) in attrs.items() if table is not None}
            shown[i] = _fill(template, values, ("deck", "display"), report)
    attrs["display"] = (STR, tuple(shown))


def _base_rows(spec, lang, languages, report, copies=1):
    """The rows of the product's combinations, then of the listed cards (each row's own
    copies under COPIES)."""
    if "product" not in spec and "cards" not in spec:
        report(("deck",), "a deck needs 'product' (dimensions), 'cards' (a list), or both")
        return None
    rows = []
    if "product" in spec:
        dims = list(spec["product"].items())
        size = math.prod(sum(_copies_of(i) for i in items) for _, items in dims) * copies
        if size > MAX_CARDS:
            report(("deck", "product"), f"the deck would have {size} cards; the limit is {MAX_CARDS}")
            return None
        for combo in itertools.product(*[items for _, items in dims]):
            row = {COPIES: math.prod(_copies_of(item) for item in combo)}
            for (dim, _), item in zip(dims, combo):
                values = _item(item, dim, lang, languages)
                for key, value in values.items():
                    if key in row and key != dim:
                        report(("deck", "product", dim), f"attribute '{key}' is given by two dimensions; rename one")
                        return None
                    row[key] = value
            rows.append(row)
    if "cards" in spec:
        listed = sum(_copies_of(c) for c in spec["cards"]) * copies
        if sum(r[COPIES] for r in rows) * copies + listed > MAX_CARDS:
            report(("deck", "cards"), f"the deck would have more than {MAX_CARDS} cards")
            return None
        for c in spec["cards"]:
            row = _item(c, "id", lang, languages)
            row[COPIES] = _copies_of(c)
            if "product" in spec:
                row[EXTRA] = True
            rows.append(row)
    return rows


def _copies_of(item) -> int:
    return item.get("copies", 1) if isinstance(item, dict) else 1


def _item(item, dim, lang, languages) -> dict:
    if not isinstance(item, dict):
        return {dim: item}
    values = {k: localize(v, lang, languages) for k, v in item.items() if k not in ("id", "copies")}
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
