"""The one place where the ruleset checker meets the expression checker.

The ruleset checker sees an expression only as a node with `.type`, `.is_const` and
`.const`, made here; what else a node holds is the back end's business (see
backend/expr_seam.py).  Today a node is the expression compiler's `Compiled`; when
expressions get a typed form of their own, this module is what changes.
"""
from __future__ import annotations

from ..backend import texts
from ..backend.expressions import ANY, PLAYER, STR, Compiled, ExprCompiler, FunctionDef, Symbols
from ..lang.syntax import ExprError, parse


class ExprSeam:
    """Checks expressions against a ruleset's names; `report(path, message, offset)` gets
    each problem, and a faulty expression gives a harmless stand-in node."""

    def __init__(self, symbols: Symbols, display, report):
        self.symbols = symbols
        self.display = display              # the cards as people read them, for texts
        self.report = report
        self.ec = ExprCompiler(symbols)

    def expr(self, text, path, scope=None, want=None, in_text=False):
        """The node of one expression, of type `want` when given; `in_text`: part of the
        account, where random() is refused."""
        self.ec.in_text = in_text
        try:
            return self.ec.compile(text, scope, want)
        except ExprError as e:
            self.report(path, e.message, e.offset if isinstance(text, str) else None)
            return stand_in(want)
        finally:
            self.ec.in_text = False

    def template(self, text: str, path, scope):
        """The node of a text with {expression} parts (a node of type string)."""
        render = texts.template(self.ec, text, scope, self.display,
                                lambda message, offset: self.report(path, message, offset))
        return Compiled(STR, render)

    def where(self, text, path, scope, var):
        """(node, memo) of a choice's `where`, evaluated for each option bound to `var`, or
        None; memo: calls that do not depend on the option are computed once per choice."""
        try:
            node = self.ec.compile_condition(text, scope, var)
        except ExprError as e:
            self.report(path, e.message, e.offset if isinstance(text, str) else None)
            return None
        return node, self.ec.hoisted > 0

    def player_of(self, tree, scope):
        """The node of a parsed part of a zone or variable reference naming a player;
        raises ExprError."""
        return self.ec.sub(tree, dict(scope), {}, 0, PLAYER)

    def define_functions(self, specs: dict) -> None:
        """Enter the ruleset's functions into the names, and check each body once with
        untyped parameters, for errors in unused functions too."""
        for name, spec in specs.items():
            try:
                tree = parse(spec["expr"])
            except ExprError as e:
                self.report(("functions", name, "expr"), e.message, e.offset)
                tree = parse("null")
            self.symbols.functions[name] = FunctionDef(name, list(spec.get("params", [])), tree)
        lenient = ExprCompiler(self.symbols, lenient=True)
        for name, spec in specs.items():
            try:
                lenient.node(self.symbols.functions[name].tree, {},
                             {p: Compiled(ANY, None) for p in spec.get("params", [])}, 0)
            except ExprError as e:
                self.report(("functions", name, "expr"), e.message, e.offset)


def stand_in(want=None):
    """A node standing for an expression that could not be checked."""
    return Compiled(want or ANY, lambda s, l: None)


def constant(typ, value):
    """The node of a value written in YAML rather than as an expression."""
    return Compiled(typ, lambda s, l, v=value: v, value)


def symbols(options, card_attrs, all_cards, shared_zones, player_zones) -> Symbols:
    """The table of names expressions may use; variables and functions enter it later."""
    return Symbols(options=options, card_attrs=card_attrs, all_cards=all_cards,
                   shared_zones=shared_zones, player_zones=player_zones)
