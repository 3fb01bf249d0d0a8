"""The one place where the ruleset checker meets the expression checker.

The ruleset checker sees an expression only as a node of the typed form (lang/expr_ir.py)
with `.type`, `.is_const` and `.const`; a mistake is reported at the expression's YAML
path (and its offset in the text) and leaves a stand-in node, so that checking goes on
and every problem is found at once.  A warning (a value that may be null: check/nulls.py)
is reported the same way through `warn`, at the expression, or at the body of the
function it is in.
"""
from __future__ import annotations

from contextlib import contextmanager

from ..lang import expr_ir
from ..lang.symbols import FunctionDef, Symbols
from ..lang.syntax import ExprError, parse
from ..lang.types import ANY, BOOL, PLAYER
from . import nulls, texts
from .expressions import ExprChecker


class ExprSeam:
    """Checks expressions against a ruleset's names; `report(path, message, offset)` gets
    each problem, and a faulty expression gives a harmless stand-in node;
    `warn(path, message, offset, end, hint)` gets each warning."""

    def __init__(self, symbols: Symbols, report, warn=None):
        self.symbols = symbols
        self.report = report
        self.warn = warn or (lambda *_: None)
        self.checker = ExprChecker(symbols)

    def expr(self, text, path, scope=None, want=None, in_text=False, condition=False):
        """The node of one expression, of type `want` when given; `in_text`: part of the
        account, where random() is refused; `condition`: it decides (it may not be null)."""
        self.checker.in_text = in_text
        try:
            return self.checker.check(text, scope, want, condition=condition)
        except ExprError as e:
            self.report(path, e.message, e.offset if isinstance(text, str) else None)
            return stand_in(want)
        finally:
            self.checker.in_text = False
            self.warned(path, 0 if isinstance(text, str) else None)

    def warned(self, path, base: int | None = 0) -> None:
        """Report the warnings of what was just checked: at `path`, their offsets `base` on
        in its text (None: the value is not text), or at the function whose body they are in."""
        for function, e in self.checker.take_warnings():
            if function is not None:
                self.warn(("functions", function, "expr"), e.message, e.offset, e.end, e.hint)
            elif base is None:
                self.warn(path, e.message, None, None, e.hint)
            else:
                self.warn(path, e.message, base + e.offset, None if e.end is None else base + e.end, e.hint)

    def template(self, text: str, path, scope) -> expr_ir.Template:
        """The checked form of a text with {expression} parts."""
        return texts.template(self.checker, text, scope, lambda message, offset: self.report(path, message, offset),
                              lambda offset: self.warned(path, offset))

    def seat_names(self, text: str, path, seats: int) -> tuple:
        """The name of each seat 1..seats by a `player_name` text, made now; () if it is wrong."""
        return texts.seat_names(self.checker, text, seats, lambda message, offset: self.report(path, message, offset))

    def team_numbers(self, text, path, lo: int, hi: int) -> tuple:
        """Each seat's team for each number of players lo..hi, by `teams.of`; () if it is wrong."""
        return texts.team_numbers(self.checker, text, lo, hi,
                                  lambda message, offset: self.report(path, message,
                                                                      offset if isinstance(text, str) else None))

    def team_names(self, text: str, path, teams: int) -> tuple:
        """The name of each team 1..teams by a `teams.name` text, made now; () if it is wrong."""
        return texts.seat_names(self.checker, text, teams, lambda message, offset: self.report(path, message, offset),
                                numbered="team")

    def where(self, text, path, scope, var):
        """The node of a choice's `where`, evaluated for each option bound to `var`, or None.
        (Which of its calls can be computed once per choice is the back end's business.)"""
        return self.expr(text, path, scope, BOOL, condition=True) if text is not None else None

    @contextmanager
    def facts(self, cond, holds: bool):
        """Within: the expressions checked are where the condition node `cond` holds (or
        fails): what it tests is not null there (the then-steps of `if: X != null`)."""
        saved = self.checker.given
        extra = nulls.facts(cond)[0 if holds else 1]
        self.checker.given = saved | extra
        try:
            yield
        finally:
            self.checker.given = saved

    def player_of(self, tree, scope):
        """The node of a parsed part of a zone or variable reference naming a player;
        raises ExprError.  (The whole reference is checked as an expression too: what this
        warns of, that warns of.)"""
        try:
            return self.checker.check_tree(tree, scope, PLAYER)
        finally:
            self.checker.take_warnings()

    def define_functions(self, specs: dict) -> None:
        """Enter the ruleset's functions into the names.  Each body is checked once: at the
        first call, with its argument types, or by `finish` if nothing calls it.  A body that
        does not parse is reported once, where it is written: its calls add no problem."""
        for name, spec in specs.items():
            try:
                tree = parse(spec["expr"])
            except ExprError as e:
                self.report(("functions", name, "expr"), e.message, e.offset)
                tree = parse("null")
                self.checker.functions[name] = None     # a body known to be wrong, as the checker keeps one
            self.symbols.functions[name] = FunctionDef(name, list(spec.get("params", [])), tree)

    def define_misshapen(self, names) -> None:
        """Enter functions whose shape the schema found wrong (and said so, where each is
        written): known names whose calls give a stand-in, so that their callers add no problem."""
        for name in names:
            self.symbols.functions[name] = FunctionDef(name, None, parse("null"))
            self.checker.functions[name] = None

    def finish(self) -> None:
        """Check the bodies nothing called; report each wrong body once, where it is written."""
        for name, e in self.checker.finish().items():
            self.report(("functions", name, "expr"), e.message, e.offset)
        self.warned(None)


def stand_in(want=None):
    """A node standing for an expression that could not be checked."""
    return expr_ir.Missing(type=want or ANY)


def stand_in_text() -> expr_ir.Template:
    """A text that could not be checked."""
    return expr_ir.Template(["?"])


def constant(typ, value):
    """The node of a value written in YAML rather than as an expression."""
    return expr_ir.Const(type=typ, const=value)


def symbols(options, card_attrs, all_cards, shared_zones, player_zones, option_values=None) -> Symbols:
    """The table of names expressions may use; variables and functions enter it later."""
    return Symbols(options=options, card_attrs=card_attrs, all_cards=all_cards,
                   shared_zones=shared_zones, player_zones=player_zones, option_values=option_values or {})
