"""Stage 2 for expressions: type-check a parsed expression into the typed IR (lang/expr_ir).

Names are resolved here (a variable, a zone, a card attribute, a local), constant
sub-expressions are folded, and every mistake is an ExprError at its offset in the text.
Nothing here builds closures or needs a game: the back ends turn the IR into code.

A ruleset's functions are checked once, where they are written: with the argument types of
their first call, or, if nothing calls them, with parameters of unknown type.  A mistake in
a body is one error, at the body (`errors`); calls to that function add none.  What a call
costs once the bodies are counted in (parts, levels) is summarised per function, so that
checking stays linear however the functions call one another, and an expression over the
limits is refused at the call that takes it over.

Null is part of the types (check/nulls.py): a value that may be null, used as a value (an
attribute's object, a number, a condition, a collection) where no test shows it is not, is
a warning (`warnings`; raised as an error under `strict`): the rules may make it impossible
in ways no test says, and the run time stops the game with a positioned error if it is null.
The facts of a test hold in the part it guards (`X.v if X != null else 0`, `X != null and
X.v > 2`); `given` holds the facts of the steps around the expression (an `if` step's
condition).  A function's body is checked once, without the facts of any caller.
"""
from __future__ import annotations

from lark import Token, Tree

from ..errors import RulesFault, did_you_mean
from ..lang import expr_ir
from ..lang.symbols import FunctionDef, Symbols
from ..lang.syntax import ExprError, end_of, free_names, offset_of, parse
from ..lang.expr_ir import cards_of, read_as
from ..lang.types import (ANY, BOOL, CARD, MAP_VALUES, NULL, NUM, PILE, PLAYER, STR, ZONE, Nullable, Unsettled,
                          a_ as _a, compatible, elem_of, is_map, list_of, map_of, type_of_value, value_of)
from . import nulls
from .builtins import BUILTINS, RANDOM_IN_TEXT
from ..lang.values import divide, floordiv, list_slice, mod, plain
from ..limits import MAX_EXPR_DEPTH, MAX_EXPR_NODES, MAX_EXPR_NUMBER, MAX_NUMBER_TEXT, MAX_WORK, deep_enough_stack

__all__ = ["ExprChecker", "ExprError", "FunctionDef", "Symbols", "free_names"]

PLAYER_BUILTINS = {"index": NUM, "seat": NUM, "name": STR, "left": PLAYER, "right": PLAYER,
                   "eliminated": BOOL, "team": NUM, "partners": list_of(PLAYER)}
TEAM_BUILTINS = ("team", "partners")        # only where the ruleset has teams
ZONE_BUILTINS = {"top": CARD, "bottom": CARD, "size": NUM}
GLOBAL_BUILTINS = {"current": PLAYER, "players": list_of(PLAYER), "active": list_of(PLAYER),
                   "num_players": NUM, "all_cards": list_of(CARD), "options": "options"}
_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": divide, "//": floordiv, "%": mod}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}
# Checking a function's body inside a call nests Python frames; a chain of calls deeper than
# this (far past MAX_EXPR_DEPTH, so surely too deep) is refused without going further.
_MAX_NESTED = 4 * MAX_EXPR_DEPTH


class ExprChecker:
    """Checks expression text against a Symbols table and a scope of local names."""

    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.in_text = False            # random() is refused (a text, or whom a log is for)
        self.before_play = False        # a text made before the game begins (a player's name):
                                        # a constant list's element is taken now, or refused
        self.functions: dict = {}       # name -> expr_ir.Function, or None if its body has a mistake
        self.errors: dict = {}          # name -> the ExprError of its body (at the function)
        self._cycle_of = None           # name -> how it calls itself (when first needed)
        self._lenient = False           # 'uncalled' or 'null': attributes of unknown values by name
        self._consts: dict = {}         # local name -> the constant it stands for
        self._base = 0                  # depth of the body being checked, below the outermost
        self._record = False            # in a body: keep the first limit passed, go on
        self._limit = None
        self._nodes = self._depth = self._work = 0
        self._random = None             # in a body: the calls by which it uses random()
        self.given = nulls.NO_FACTS     # facts of the steps around the expression (the seam's)
        self.seats = symbols.seats      # players[i] is not null for -seats <= i < seats
        self._facts = nulls.NO_FACTS    # facts where the part being checked is computed
        self._trees: dict = {}          # the text of a part of a text -> its tree (see parsed)
        self.nulls_fail = False         # a check of a scenario: a null where a value is needed fails
                                        # it at run time, instead of being warned of here
        self.strict = False             # a value that may be null is an error, not a warning
        self.warnings: list = []        # (the function whose body it is in, or None; ExprError)
        self._function = None           # the function whose body is being checked
        deep_enough_stack()             # nested bodies: see _MAX_NESTED

    # -- entry points -------------------------------------------------------
    def check(self, text, scope: dict | None = None, want: str | None = None, consts: dict | None = None,
              condition: bool = False):
        """The IR of `text` with local names `scope` (name -> type); raise ExprError.
        `consts` binds local names to constants (a card, when the deck derives attributes);
        `condition`: the value decides something, so it may not be null."""
        return self.check_tree(parse(text), scope, want, consts, condition)

    def parsed(self, text: str):
        """The tree of `text`, parsed once however often it is checked: the parts of texts,
        which recur in each language's version of a text and in each seat's name."""
        tree = self._trees.get(text)
        if tree is None:
            tree = self._trees[text] = parse(text)
        return tree

    def check_tree(self, tree, scope=None, want=None, consts=None, condition=False):
        saved = self._consts, self._facts
        self._consts = consts or {}
        self._facts = self.given
        self._nodes = self._depth = self._work = 0
        try:
            node = self.node(tree, dict(scope or {}), 0)
            if condition:
                self.needed(node, tree, tree)
        finally:
            self._consts, self._facts = saved
        node = read_as(node, want)
        if want is not None and not compatible(node.type, want):
            raise ExprError(f"expected {_a(want)} here, but this is {_a(node.type)}", 0)
        return node

    def check_whole(self, text, scope=None, want=None):
        """check(), and a mistake in the body of a function it is the first to call (with
        these argument types) raised too, as one of this expression: for a check made after
        the ruleset's own (a scenario's)."""
        known = set(self.errors)
        node = self.check(text, scope, want)
        for name, e in self.errors.items():
            if name not in known:
                raise ExprError(f"in function {name}(): {e.message}", 0)
        return node

    def finish(self) -> dict:
        """Check the functions nothing has called yet (their parameters of unknown type,
        callers first); return name -> ExprError for each function whose body is wrong."""
        called = {n for f in self.sym.functions.values() for n in _calls_in(f.tree)}
        for roots in (True, False):
            for name, fdef in self.sym.functions.items():
                if name not in self.functions and (name not in called) == roots:
                    self.function(fdef, [ANY] * len(fdef.params), uncalled=True)
        return self.errors

    # -- dispatch -----------------------------------------------------------
    def node(self, t, scope, depth):
        if depth > MAX_EXPR_DEPTH:
            raise ExprError(f"expression is nested too deeply (more than {MAX_EXPR_DEPTH} levels, "
                            "counting the bodies of the functions it calls)", offset_of(t), wrap=False)
        if depth > self._depth:
            self._depth = depth
        self._nodes += 1
        if self._nodes > MAX_EXPR_NODES:
            self.limit(_too_large(), offset_of(t))
        if isinstance(t, Token):
            raise ExprError(f"unexpected {t.value!r}", offset_of(t))
        return getattr(self, "_" + t.data.rstrip("_"))(t, scope, depth + 1)

    def sub(self, t, scope, depth, want=None):
        n = read_as(self.node(t, scope, depth), want)
        if want is not None and not compatible(n.type, want):
            raise ExprError(f"expected {_a(want)} here, but this is {_a(n.type)}", offset_of(t))
        return n

    def value(self, t, scope, depth, want=None, use=None):
        """sub(), for a part whose value is needed (it may not be null); `use`: the tree of
        the expression that uses it, for the example in the message."""
        n = self.sub(t, scope, depth, want)
        self.needed(n, t, use if use is not None else t)
        return n

    def needed(self, n, t, use, typ=None):
        """Warn of node `n` (of tree `t`, used in `use`, a value of `typ`) if it may be null here;
        refuse the literal null."""
        if self.nulls_fail or not nulls.may_be_null(n, self._facts):
            return
        if n.is_const and n.const is None:
            raise ExprError(nulls.message(n), offset_of(t))
        attribute = use.children[1].value if isinstance(use, Tree) and use.data == "attr" \
            and use.children[0] is t else None
        self.warn(ExprError(nulls.message(n), offset_of(t), end=end_of(t),
                            hint=nulls.hint(n, attribute, typ or n.type)))

    def warn(self, e: ExprError):
        """Note warning `e` (raise it, under `strict`); the check goes on as if the value were there."""
        if self.strict:
            raise e
        self.warnings.append((self._function, e))

    def take_warnings(self) -> list:
        """The warnings noted since the last call: [(function name or None, ExprError)]."""
        taken, self.warnings = self.warnings, []
        return taken

    def guarded(self, facts, t, scope, depth, want=None, use=None):
        """sub() of a part computed only where `facts` hold (a branch, the right of and/or);
        value() if it is `use`d."""
        saved = self._facts
        self._facts = saved | facts if facts else saved
        try:
            return self.sub(t, scope, depth, want) if use is None else self.value(t, scope, depth, want, use)
        finally:
            self._facts = saved

    def limit(self, message, offset):
        """A limit of the whole expression passed at a call: an error there, or, in a body,
        noted (the body stays usable; each call of it is measured against the limits)."""
        if not self._record:
            raise ExprError(message, offset, wrap=False)
        if self._limit is None:
            self._limit = ExprError(message, offset, wrap=False)

    # -- literals -----------------------------------------------------------
    def _literal(self, t, *_):
        v = t.children[0]
        if isinstance(v, (int, float)) and not isinstance(v, bool) and not -MAX_EXPR_NUMBER < v < MAX_EXPR_NUMBER:
            raise ExprError(f"number {v!r} is out of range: numbers must lie strictly between "
                            f"-{MAX_EXPR_NUMBER:.0e} and {MAX_EXPR_NUMBER:.0e}", offset_of(t))
        return expr_ir.Const(type=BOOL if isinstance(v, bool) else NULL if v is None else NUM, tree=t, const=v,
                        maybe_null=v is None)

    def _number(self, t, *_):
        tok = t.children[0]
        text = tok.value
        if len(text) > MAX_NUMBER_TEXT:
            raise ExprError(f"number is {len(text)} characters long; the limit is {MAX_NUMBER_TEXT}", offset_of(tok))
        v = float(text) if "." in text else int(text)
        if not v < MAX_EXPR_NUMBER:
            raise ExprError(f"number {text} is too large: numbers must lie strictly between "
                            f"-{MAX_EXPR_NUMBER:.0e} and {MAX_EXPR_NUMBER:.0e}", offset_of(tok))
        return expr_ir.Const(type=NUM, tree=t, const=v)

    def _string(self, t, *_):
        tok = t.children[0]
        return expr_ir.Const(type=STR, tree=t, const=unescape(tok.value[1:-1], offset_of(tok) + 1))

    def _true(self, t, *_):
        return expr_ir.Const(type=BOOL, tree=t, const=True)

    def _false(self, t, *_):
        return expr_ir.Const(type=BOOL, tree=t, const=False)

    def _null(self, t, *_):
        return expr_ir.Const(type=NULL, tree=t, const=None, maybe_null=True)

    def _list(self, t, scope, depth):
        args = _args(t.children[0])
        items = [self.sub(a, scope, depth) for a in args]
        et = NULL
        for it, a in zip(items, args):
            if et == NULL:
                et = it.type
            elif not compatible(et, it.type):
                raise ExprError(f"a list mixes {_a(et)} and {_a(it.type)}", offset_of(a))
        typ = list_of(ANY if et == NULL else et)
        if all(i.is_const for i in items):
            return expr_ir.Const(type=typ, tree=t, const=[i.const for i in items])
        return expr_ir.ListLit(type=typ, tree=t, items=items)

    def _map(self, t, scope, depth):
        """{key: value, ...}: a map from texts to values of one type (number, text, player or
        yes/no); {} is the empty map, of whatever type its place wants."""
        pairs = [] if t.children[0] is None else t.children[0].children
        keys, values, vt = [], [], NULL
        for pair in pairs:
            k_t, v_t = pair.children
            keys.append(self.value(k_t, scope, depth, STR, use=t))
            v = self.value(v_t, scope, depth, use=t)
            if vt == NULL:
                vt = v.type
            elif not compatible(vt, v.type):
                raise ExprError(f"a map mixes {_a(vt)} and {_a(v.type)}", offset_of(v_t))
            values.append(v)
        if vt not in MAP_VALUES + (NULL, ANY):
            raise ExprError(f"a map holds numbers, texts, players or yes/no values, not {_a(vt)}s",
                            offset_of(pairs[0].children[1]))
        typ = map_of(ANY if vt == NULL else vt)
        if all(k.is_const for k in keys) and all(v.is_const for v in values):
            return expr_ir.Const(type=typ, tree=t, const={k.const: v.const for k, v in zip(keys, values)})
        return expr_ir.MapLit(type=typ, tree=t, keys=keys, values=values)

    # -- names --------------------------------------------------------------
    def _name(self, t, scope, depth):
        name = t.children[0].value
        off = offset_of(t)
        if name in scope:
            if isinstance(scope[name], Unsettled):
                raise ExprError(scope[name].message, off)
            if name in self._consts:
                v = self._consts[name]
                return expr_ir.Const(type=scope[name], tree=t, const=v, maybe_null=v is None)
            return expr_ir.Local(type=scope[name], tree=t, name=name, maybe_null=isinstance(scope[name], Nullable))
        sym = self.sym
        if name in GLOBAL_BUILTINS:
            return self._builtin_name(name, t, off)
        if name in sym.global_vars:
            return expr_ir.GlobalVar(type=sym.global_vars[name], tree=t, name=name)
        if name in sym.shared_zones:
            return expr_ir.SharedZone(type=ZONE, tree=t, name=name)
        if name in sym.pile_zones:
            return expr_ir.PileList(type=list_of(PILE), tree=t, name=name)
        if name in sym.player_zones:
            raise ExprError(f"'{name}' is a zone each player has: say whose, e.g. current.{name}", off)
        if name in sym.player_vars:
            raise ExprError(f"'{name}' is a variable each player has: say whose, e.g. current.{name}", off)
        known = list(scope) + list(GLOBAL_BUILTINS) + list(sym.global_vars) + list(sym.shared_zones) + list(sym.pile_zones)
        raise ExprError(f"unknown name '{name}'{did_you_mean(name, known)}", off)

    def _builtin_name(self, name, t, off):
        if name == "current":
            return expr_ir.Current(type=PLAYER, tree=t)
        if name == "players":
            return expr_ir.Players(type=list_of(PLAYER), tree=t)
        if name == "active":
            return expr_ir.Active(type=list_of(PLAYER), tree=t)
        if name == "num_players":
            return expr_ir.NumPlayers(type=NUM, tree=t)
        if name == "all_cards":
            return expr_ir.Const(type=list_of(CARD), tree=t, const=self.sym.all_cards)
        raise ExprError("'options' needs an option name, e.g. options.some_option", off)

    # -- attribute access -----------------------------------------------------
    def _attr(self, t, scope, depth):
        obj_t, name_tok = t.children
        name = name_tok.value
        off = offset_of(name_tok)
        if isinstance(obj_t, Tree) and obj_t.data == "name" and obj_t.children[0].value == "options" \
                and "options" not in scope:
            if name in self.sym.misshapen_options:     # said where it is written
                return expr_ir.Missing(type=ANY, tree=t)
            if name not in self.sym.options:
                raise ExprError(f"unknown option '{name}'{did_you_mean(name, self.sym.options)}", off)
            v = self.sym.options[name]
            return expr_ir.Const(type=type_of_value(v), tree=t, const=v)
        obj = self.sub(obj_t, scope, depth)
        node = self._attr_of(obj, name, t, off)
        self.needed(obj, obj_t, t, node.type)
        return node

    def _safe_attr(self, t, scope, depth):
        """`X?.name`: null where X is null, else X.name; X is computed once."""
        obj_t, name_tok = t.children
        obj = self.sub(obj_t, scope, depth)
        if obj.is_const and obj.const is None:
            return expr_ir.Const(type=NULL, tree=t, const=None, maybe_null=True)
        node = self._attr_of(obj, name_tok.value, t, offset_of(name_tok))
        if obj.is_const:
            return node
        return self._unless_null(obj, node, expr_ir.Const(type=NULL, const=None, maybe_null=True), t, True)

    def _coalesce(self, t, scope, depth):
        """`X ?? Y`: X, or Y where X is null; X is computed once."""
        a_t, b_t = t.children
        a = self.sub(a_t, scope, depth)
        b = self.sub(b_t, scope, depth)
        if not compatible(a.type, b.type):
            raise ExprError(f"'??' gives {_a(a.type)} or {_a(b.type)}: both sides must be of one type",
                            offset_of(b_t))
        if a.is_const:
            return b if a.const is None else a
        return self._unless_null(a, a, b, t, nulls.may_be_null(b, self._facts))

    def _unless_null(self, x, yes, no, t, maybe_null):
        """`yes if x != null else no`, as `?.` and `??` mean it: the back ends compute x once
        (expr_ir.null_test), which they cannot do for a value drawn at random.  (Built even
        where the checker takes x to be set, as a variable declared `initial: null`.)"""
        if expr_ir.draws_random(x):
            raise ExprError("'?.' and '??' need a value computed once; this one draws random(): "
                            "choose it first (a local, or a variable)", offset_of(t))
        cond = expr_ir.Compare(type=BOOL, tree=t, op="!=", a=x, b=expr_ir.Const(type=NULL, const=None, maybe_null=True))
        return expr_ir.IfElse(type=no.type if yes.type == NULL else yes.type, tree=t, cond=cond, yes=yes, no=no,
                         maybe_null=maybe_null)

    def _attr_of(self, obj, name, t, off):
        """The node of attribute `name` of `obj` (a card, player or zone)."""
        kind = obj.type
        if kind == ANY and self._lenient and not isinstance(obj, expr_ir.Missing):
            kind = self._owner_of(name, off)
            if kind is None:            # several kinds have it: fine for a body nothing calls
                if self._lenient == "uncalled":
                    return expr_ir.Missing(type=ANY, tree=t)
                raise ExprError(f"cards, players and zones may each have '{name}': call this function first "
                                f"with a value that is not null, so that its kind is known", off)
        if kind == CARD:
            if name not in self.sym.card_attrs:
                raise ExprError(f"cards have no attribute '{name}'{did_you_mean(name, self.sym.card_attrs)}", off)
            typ, table = self.sym.card_attrs[name]
            if table is None:           # an attribute that could not be derived: reported where it is written
                return expr_ir.Missing(type=ANY, tree=t)
            if obj.is_const:
                if obj.const is None:
                    raise ExprError(f"null has no attribute '{name}'", off)
                return expr_ir.Const(type=typ, tree=t, const=table[obj.const])
            return expr_ir.CardAttr(type=typ, tree=t, obj=obj, name=name)
        if kind == PLAYER:
            return self._player_attr(obj, name, t, off)
        if kind == PILE:
            if name == "owner":
                return expr_ir.PileOwner(type=PLAYER, tree=t, obj=obj, maybe_null=True)
            if name not in ZONE_BUILTINS:
                raise ExprError(f"piles have no attribute '{name}'{did_you_mean(name, PILE_ATTRS)} "
                                f"(piles have: {', '.join(PILE_ATTRS)})", off)
            obj, kind = cards_of(obj), ZONE
        if kind == ZONE:
            if name in ZONE_BUILTINS:
                return expr_ir.ZoneProp(type=ZONE_BUILTINS[name], tree=t, obj=obj, name=name,
                                   maybe_null=name in ("top", "bottom"))
            raise ExprError(f"zones have no attribute '{name}'{did_you_mean(name, ZONE_BUILTINS)} "
                            f"(zones have: {', '.join(ZONE_BUILTINS)})", off)
        if obj.type == ANY and isinstance(obj, expr_ir.Missing):
            return expr_ir.Missing(type=ANY, tree=t)
        raise ExprError(f"{_a(obj.type)} has no attributes (looking for '{name}')", off)

    def _owner_of(self, name, off):
        """The kind of value (CARD, PLAYER or ZONE) that has attribute `name`, for a value whose
        type is not known (a parameter of a function nothing calls, or first called with
        null); None where several kinds have it; an ExprError where none does, so that a typo
        in such a body is found too."""
        sym = self.sym
        kinds = {CARD: sym.card_attrs, PLAYER: {**PLAYER_BUILTINS, **sym.player_vars, **{z: ZONE for z in sym.player_zones}},
                 ZONE: ZONE_BUILTINS, PILE: {"owner": PLAYER}}
        having = [k for k, attrs in kinds.items() if name in attrs]
        if not having:
            known = [n for attrs in kinds.values() for n in attrs]
            raise ExprError(f"no card, player or zone has an attribute '{name}'{did_you_mean(name, known)}", off)
        return having[0] if len(having) == 1 else None

    def _player_attr(self, obj, name, t, off):
        sym = self.sym
        if obj.is_const and obj.const is None:
            raise ExprError(f"null has no attribute '{name}'", off)
        if name in sym.player_vars:
            return expr_ir.PlayerVar(type=sym.player_vars[name], tree=t, owner=obj, name=name)
        if name in sym.player_zones:
            return expr_ir.PlayerZone(type=ZONE, tree=t, owner=obj, name=name)
        if name in TEAM_BUILTINS and sym.teams is None:
            raise ExprError(f"'.{name}' is a player's team, and this ruleset has no teams (declare them: "
                            f"teams: {{of: ...}})", off)
        if name in PLAYER_BUILTINS:
            return expr_ir.PlayerProp(type=PLAYER_BUILTINS[name], tree=t, obj=obj, name=name)
        known = list(sym.player_vars) + list(sym.player_zones) + list(PLAYER_BUILTINS)
        raise ExprError(f"players have no attribute '{name}'{did_you_mean(name, known)}", off)

    def _index(self, t, scope, depth):
        coll_t, idx_t = t.children
        coll = cards_of(self.value(coll_t, scope, depth, use=t))
        if is_map(coll.type):                   # m[key]: the value, or null where there is none
            key = self.value(idx_t, scope, depth, STR, use=t)
            t.map_key = True                    # (a null there is said as a key the map lacks)
            return self.fold(expr_ir.MapGet(type=value_of(coll.type), tree=t, coll=coll, key=key, maybe_null=True),
                             lambda m, k: m.get(k), coll, key)
        et = elem_of(coll.type)
        if et is None:
            raise ExprError(f"cannot index {_a(coll.type)}", offset_of(coll_t))
        idx = self.value(idx_t, scope, depth, NUM, use=t)
        if self.before_play and coll.is_const and idx.is_const:
            return self._element(coll, idx, t, idx_t)
        return expr_ir.Index(type=et, tree=t, coll=coll, index=idx, maybe_null=not self._a_seat(coll, idx))

    def _element(self, coll, idx, t, idx_t):
        """The constant `coll[idx]` of a text made before the game begins, where a null
        would name nobody: an index past either end is refused, at the index."""
        items, i = coll.const, idx.const
        if not isinstance(i, int) or isinstance(i, bool):
            raise ExprError(f"{plain(i)} is not a whole number, so it cannot index a list", offset_of(idx_t), wrap=False)
        if not -len(items) <= i < len(items):     # (in a function's body: said at the call)
            raise ExprError(f"index {i} is past the end of this list of {len(items)}", offset_of(idx_t), wrap=False)
        return expr_ir.Const(type=elem_of(coll.type), tree=t, const=items[i], maybe_null=items[i] is None)

    def _slice(self, t, scope, depth):
        """xs[a:b]: the elements from a up to b (not included), either end left out."""
        coll_t, lo_t, hi_t = t.children
        coll = cards_of(self.value(coll_t, scope, depth, use=t))
        et = elem_of(coll.type)
        if et is None or is_map(coll.type):
            raise ExprError(f"cannot slice {_a(coll.type)}", offset_of(coll_t))
        ends = [expr_ir.Const(type=NULL, tree=t, const=None) if x is None else self.value(x, scope, depth, NUM, use=t)
                for x in (lo_t, hi_t)]
        node = expr_ir.BuiltinCall(type=list_of(et), tree=t, name="slice", args=[coll, *ends], var=None, body=None)
        return self.fold(node, list_slice, coll, *ends)

    def _a_seat(self, coll, idx) -> bool:
        """Whether `coll[idx]` is a player every game has (players[0] when there are 2 or more)."""
        return isinstance(coll, expr_ir.Players) and idx.is_const and isinstance(idx.const, int) \
            and -self.seats <= idx.const < self.seats

    # -- operators ----------------------------------------------------------
    def _neg(self, t, scope, depth):
        a = self.value(t.children[0], scope, depth, NUM, use=t)
        return self.fold(expr_ir.Neg(type=NUM, tree=t, a=a), lambda v: -v, a)

    def _not(self, t, scope, depth):
        a = self.value(t.children[0], scope, depth, BOOL, use=t)
        return self.fold(expr_ir.Not(type=BOOL, tree=t, a=a), lambda v: not v, a)

    def _and(self, t, scope, depth):
        a_t, b_t = t.children
        a = self.value(a_t, scope, depth, BOOL, use=t)
        b = self.guarded(nulls.facts(a)[0], b_t, scope, depth, BOOL, use=t)
        if a.is_const:
            return b if a.const else expr_ir.Const(type=BOOL, tree=t, const=False)
        if b.is_const:          # the left side runs anyway: expressions have no side effects
            return a if b.const else expr_ir.Const(type=BOOL, tree=t, const=False)
        return expr_ir.And(type=BOOL, tree=t, a=a, b=b)

    def _or(self, t, scope, depth):
        a_t, b_t = t.children
        a = self.value(a_t, scope, depth, BOOL, use=t)
        b = self.guarded(nulls.facts(a)[1], b_t, scope, depth, BOOL, use=t)
        if a.is_const:
            return expr_ir.Const(type=BOOL, tree=t, const=True) if a.const else b
        if b.is_const:
            return expr_ir.Const(type=BOOL, tree=t, const=True) if b.const else a
        return expr_ir.Or(type=BOOL, tree=t, a=a, b=b)

    def _ifelse(self, t, scope, depth):
        yes_t, cond_t, no_t = t.children
        cond = self.value(cond_t, scope, depth, BOOL, use=t)
        if_yes, if_no = nulls.facts(cond)
        yes = self.guarded(if_yes, yes_t, scope, depth)
        no = self.guarded(if_no, no_t, scope, depth)
        if not compatible(yes.type, no.type):
            raise ExprError(f"the two branches differ: {_a(yes.type)} and {_a(no.type)}", offset_of(no_t))
        if cond.is_const:
            return yes if cond.const else no
        maybe_null = nulls.may_be_null(yes, self._facts | if_yes) or nulls.may_be_null(no, self._facts | if_no)
        return expr_ir.IfElse(type=no.type if yes.type == NULL else yes.type, tree=t, cond=cond, yes=yes, no=no,
                         maybe_null=maybe_null)

    def _arith(self, t, scope, depth):
        a_t, op_tok, b_t = t.children
        op = op_tok.value
        a = cards_of(self.value(a_t, scope, depth, use=t))
        b = cards_of(self.value(b_t, scope, depth, use=t))
        if op == "+" and (is_map(a.type) or is_map(b.type)):
            raise ExprError("'+' does not join maps: set an entry, set: {\"m[key]\": value}", offset_of(op_tok))
        if op == "+" and elem_of(a.type) and elem_of(b.type) and a.type != ANY:
            if not compatible(elem_of(a.type), elem_of(b.type)):
                raise ExprError(f"'+' joins lists of one kind, not {_a(a.type)} and {_a(b.type)}", offset_of(b_t))
            typ = a.type if a.type != ZONE else list_of(CARD)
            if elem_of(a.type) in (ANY, NULL) and b.type != ANY:        # [] + [bid]: of the other's kind
                typ = b.type if b.type != ZONE else list_of(CARD)
            return self.fold(expr_ir.Join(type=typ, tree=t, a=a, b=b), self._joined, a, b)
        if op == "+" and STR in (a.type, b.type) and {a.type, b.type} <= {STR, ANY}:
            return self.fold(expr_ir.Concat(type=STR, tree=t, a=a, b=b), self._joined, a, b)
        for n, nt in ((a, a_t), (b, b_t)):
            if not compatible(n.type, NUM):
                raise ExprError(f"'{op}' needs numbers, but this is {_a(n.type)}", offset_of(nt))
        return self.fold(expr_ir.Arith(type=NUM, tree=t, op=op, a=a, b=b), _ARITH[op], a, b)

    def _joined(self, x, y):
        r = x + y if isinstance(x, str) else [*x, *y]
        self.charge(len(r))
        return r

    def _compare(self, t, scope, depth):
        a_t, op_tok, b_t = t.children
        op = " ".join(op_tok.value.split())
        a = self.sub(a_t, scope, depth)
        b = self.sub(b_t, scope, depth)
        if op in ("<", ">", "<=", ">="):         # == and != take null
            self.needed(a, a_t, t)
        if op != "==" and op != "!=":
            self.needed(b, b_t, t)
        self._no_card_has(a, b, b_t, op)
        self._no_card_has(b, a, a_t, op)
        if "options" not in scope:
            self._no_option_takes(a_t, b, b_t, op)
            self._no_option_takes(b_t, a, a_t, op)
        if op in ("in", "not in"):
            b = cards_of(b)
            et = elem_of(b.type)
            if et is None:
                raise ExprError(f"'{op}' needs a list or zone on its right, but this is {_a(b.type)}", offset_of(b_t))
            if not compatible(a.type, et):
                raise ExprError(f"looking for {_a(a.type)} among {_a(et)} values", offset_of(a_t))
            member = (lambda x, c: x in c) if op == "in" else (lambda x, c: x not in c)
            return self.fold(expr_ir.Member(type=BOOL, tree=t, op=op, a=a, b=b), member, a, b)
        if not compatible(a.type, b.type):
            raise ExprError(f"cannot compare {_a(a.type)} with {_a(b.type)}", offset_of(op_tok))
        if op in ("<", ">", "<=", ">=") and a.type not in (NUM, STR, ANY, NULL):
            raise ExprError(f"'{op}' compares numbers or strings, not {a.type}s", offset_of(op_tok))
        cmp = _COMPARE[op]
        if elem_of(a.type) is not None and a.type != ANY:     # lists compare element by element
            def cmp(x, y, f=cmp):
                self.charge(len(x or ()))
                return f(x, y)
        return self.fold(expr_ir.Compare(type=BOOL, tree=t, op=op, a=a, b=b), cmp, a, b)

    def _no_card_has(self, attr, other, other_t, op):
        """A card attribute compared with a value no card of the deck has (`card.id == 'JD'`
        in a deck with no jacks, `card.rank in ['Q', 'X']`) is a mistake: the test never holds."""
        if op not in ("==", "!=", "in", "not in") or type(attr).__name__ != "CardAttr" or not other.is_const \
                or other.const is None:
            return
        values = other.const if op in ("in", "not in") and isinstance(other.const, list) else [other.const]
        table = self.sym.card_attrs.get(attr.name, (None, ()))[1]
        if not table or op in ("in", "not in") and other is not attr and not isinstance(other.const, list):
            return
        known = set(table)
        for v in values:
            if v is not None and not isinstance(v, (list, dict)) and v not in known:
                raise ExprError(f"no card of the deck has {attr.name} {v!r}"
                                f"{did_you_mean(v, sorted({str(x) for x in known}))}", offset_of(other_t))

    def _no_option_takes(self, option_t, other, other_t, op):
        """An option of listed choices compared with a value it cannot take
        (`options.empty_draw_pile == 'draw_gme'`) is a mistake: the test never holds, or
        always does, whatever convention is in force."""
        name = _option_read(option_t)
        if op not in ("==", "!=", "in", "not in") or name not in self.sym.option_values or not other.is_const \
                or other.const is None:
            return
        if op in ("in", "not in") and not isinstance(other.const, list):
            return
        choices = self.sym.option_values[name]
        items = other_t.children[0].children if op in ("in", "not in") and isinstance(other_t, Tree) \
            and other_t.data == "list" and other_t.children and other_t.children[0] is not None else None
        values = other.const if op in ("in", "not in") else [other.const]
        for i, v in enumerate(values):
            if v is not None and not isinstance(v, (list, dict)) and v not in choices:
                where = items[i] if items is not None and i < len(items) else other_t
                close = did_you_mean(v, [str(c) for c in choices]) if isinstance(v, str) else ""
                raise ExprError(f"option '{name}' has no choice {v!r}"
                                + (close or f" (its choices: {', '.join(map(str, choices))})"), offset_of(where))

    def fold(self, node, compute, *parts):
        """`node`, or its value if every part is a constant and computing it succeeds; a
        computation that fails is left to fail at run time, at the step that runs it."""
        if not all(p.is_const for p in parts):
            return node
        try:
            value = compute(*(p.const for p in parts))
        except (ArithmeticError, TypeError, ValueError, RulesFault):
            return node
        if node.type == NUM and isinstance(value, (int, float)) and not -MAX_EXPR_NUMBER < value < MAX_EXPR_NUMBER:
            raise ExprError(f"this computes a number beyond the limit of {MAX_EXPR_NUMBER:.0e}", wrap=False)
        return expr_ir.Const(type=node.type, tree=node.tree, const=value)

    def charge(self, n):
        """The work budget of folding constants (lists joined, compared, shown)."""
        self._work += n
        if self._work > MAX_WORK:
            raise ExprError(f"the rules did more than {MAX_WORK:,} units of work between two decisions "
                            "(elements visited by count, sum, filter, map, any, in, ...): do functions of "
                            "each element nest too deeply?", wrap=False)

    # -- calls --------------------------------------------------------------
    def _lambda(self, t, *_):
        raise ExprError("'x => ...' may only be an argument of a function such as count or filter",
                        offset_of(t))

    def _call(self, t, scope, depth):
        name_tok, args_t = t.children
        name = name_tok.value
        args = _args(args_t)
        if name in self.sym.functions:
            return self._user_call(self.sym.functions[name], args, t, scope, depth)
        spec = BUILTINS.get(name)
        if spec is None:
            known = list(BUILTINS) + list(self.sym.functions)
            raise ExprError(f"unknown function '{name}'{did_you_mean(name, known)}", offset_of(name_tok))
        return spec(self, name, args, t, scope, depth)

    def _user_call(self, fdef, args, t, scope, depth):
        off = offset_of(t)
        if fdef.params is None:         # a function the schema found wrong: said once, at the function
            for a in args:
                self.sub(a, scope, depth)
            return expr_ir.Missing(type=ANY, tree=t)
        if len(args) != len(fdef.params):
            raise ExprError(f"{fdef.name}() takes {len(fdef.params)} argument(s), got {len(args)}", off)
        if self._cycle_of is None:
            self._cycle_of = _cycles(self.sym.functions)
        if fdef.name in self._cycle_of:
            cycle = self._cycle_of[fdef.name]
            raise ExprError(f"in function {_chain(cycle)}: function '{fdef.name}' calls itself; "
                            "functions may not be recursive", off)
        values = [self.sub(a, scope, depth) for a in args]
        if fdef.name not in self.functions:
            if self._base + depth > _MAX_NESTED:
                self.limit(_too_deep(), off)
                self._depth = MAX_EXPR_DEPTH + 1
                return expr_ir.Missing(type=ANY, tree=t)
            self.function(fdef, [_param_type(v, nulls.may_be_null(v, self._facts)) for v in values],
                          self._base + depth)
        f = self.functions[fdef.name]
        if f is None:                   # its body is wrong: said once, at the function
            return expr_ir.Missing(type=ANY, tree=t)
        for i, ((p, typ), v, a) in enumerate(zip(f.params, values, args)):
            if not compatible(v.type, typ):
                raise ExprError(f"{f.name}() expects {_a(typ)} as its {_ordinal(i + 1)} argument, "
                                f"but this is {_a(v.type)}", offset_of(a))
        if self.in_text and f.random_via is not None:
            raise ExprError(f"in function {_chain([f.name] + f.random_via)}: {RANDOM_IN_TEXT}", off)
        if self._random is None and f.random_via is not None:
            self._random = [f.name] + f.random_via
        self._depth = max(self._depth, depth + f.depth)
        if depth + f.depth > MAX_EXPR_DEPTH:
            self.limit(_too_deep(), off)
        self._nodes += f.size
        if self._nodes > MAX_EXPR_NODES:
            self.limit(_too_large(), off)
        if all(v.is_const for v in values) and f.random_via is None:
            folded = self._folded(fdef, f, values, t)
            if folded is not None:
                return folded
        return expr_ir.UserCall(type=f.type, tree=t, function=f, args=values, maybe_null=f.body.maybe_null)

    def _folded(self, fdef, f, values, t):
        """A call with constant arguments, computed now if its body then folds: the body is
        checked again with its parameters bound to the values (within the size limit, which
        bounds this too).  A body that does not fold is left to the call at run time."""
        if f.size > MAX_EXPR_NODES or f.depth > MAX_EXPR_DEPTH or self._limit is not None:
            return None
        saved = self._consts, self._nodes, self._depth, self._record, self.in_text, self._facts, self.strict
        self._consts = {p: v.const for p, v in zip(fdef.params, values)}
        self._nodes, self._depth, self._record, self.in_text, self._facts = 0, 0, False, False, nulls.NO_FACTS
        self.strict, warned = True, len(self.warnings)      # its warnings were noted where it is written
        try:
            node = self.node(fdef.tree, dict(f.params), 0)
        except ExprError as e:
            if e.wrap:                  # e.g. null.value: the call says it at run time
                return None
            raise ExprError(e.message, offset_of(t), wrap=False) from None
        finally:
            self._consts, self._nodes, self._depth, self._record, self.in_text, self._facts, self.strict = saved
            del self.warnings[warned:]
        if not node.is_const:
            return None
        return expr_ir.Const(type=f.type, tree=t, const=node.const, maybe_null=node.const is None)

    def function(self, fdef: FunctionDef, types: list, base: int = 0, uncalled: bool = False):
        """Check a function's body once, its parameters of `types`; note what it costs."""
        saved = (self.in_text, self._consts, self._base, self._record, self._limit, self._nodes,
                 self._depth, self._work, self._random, self._lenient, self._facts, self._function)
        self.in_text, self._consts, self._base, self._record, self._limit = False, {}, base, True, None
        self._function = fdef.name
        # a parameter of unknown type (nothing calls it, or a first call passed null): see _owner_of
        self._lenient = ("uncalled" if uncalled else "null") if ANY in types else False
        self._facts = nulls.NO_FACTS
        self._nodes = self._depth = self._work = 0
        self._random = None
        self.functions[fdef.name] = None            # while its body is checked, and if it is wrong
        try:
            body = self.node(fdef.tree, dict(zip(fdef.params, types)), 0)
            f = expr_ir.Function(fdef.name, list(zip(fdef.params, types)), body, min(self._nodes, MAX_EXPR_NODES + 1),
                            self._depth, self._random)
            self.functions[fdef.name] = f
            if self._limit is not None:
                self.errors[fdef.name] = self._limit
        except ExprError as e:
            self.errors[fdef.name] = e
        finally:
            (self.in_text, self._consts, self._base, self._record, self._limit, self._nodes,
             self._depth, self._work, self._random, self._lenient, self._facts, self._function) = saved

    def collection(self, a_t, scope, depth, use=None):
        """(the node of a list or zone, the type of its elements: Nullable if it may hold null)."""
        c = cards_of(self.value(a_t, scope, depth, use=use))
        et = elem_of(c.type)
        if et is None:
            raise ExprError(f"expected a list or zone, but this is {_a(c.type)}", offset_of(a_t))
        if is_map(c.type):                      # a map as a list: its keys
            c = self.fold(expr_ir.BuiltinCall(type=list_of(STR), tree=c.tree, name="keys", args=[c], var=None,
                                              body=None), lambda m: list(m), c)
        return c, nulls.element_type(et, c)

    def each(self, a_t, elem_type, scope, depth, want=None):
        """Check `x => body` with x bound to each element; return (var, body)."""
        if not (isinstance(a_t, Tree) and a_t.data == "lambda_"):
            raise ExprError("expected a function of each element here, such as c => c.points", offset_of(a_t))
        var_tok, body_t = a_t.children
        var = var_tok.value
        if var in scope:
            raise ExprError(f"'{var}' is already a name here; choose another name for the element",
                            offset_of(var_tok))
        inner = dict(scope)
        inner[var] = elem_type
        if want is None:
            return var, self.sub(body_t, inner, depth)
        return var, self.value(body_t, inner, depth, want)


PILE_ATTRS = ("owner", *ZONE_BUILTINS)


def _param_type(v, maybe_null: bool) -> str:
    """The type a function's parameter takes from the first call's argument `v`."""
    typ = ANY if v.type == NULL else v.type
    return Nullable(typ) if maybe_null else typ


def _too_deep() -> str:
    return (f"expression is nested too deeply (more than {MAX_EXPR_DEPTH} levels, "
            "counting the bodies of the functions it calls)")


def _too_large() -> str:
    return (f"expression is too large: more than {MAX_EXPR_NODES} parts once the functions it "
            "calls are copied in (each call copies its function's body)")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _chain(names) -> str:
    """'f()', 'f() → g()', a long chain shortened: 'f() → g() → … → h()'."""
    names = [n + "()" for n in names]
    if len(names) > 4:
        names = names[:2] + ["…"] + names[-1:]
    return " → ".join(names)


def _option_read(t) -> str | None:
    """The option's name when the tree `t` reads one (`options.NAME`), else None."""
    if isinstance(t, Tree) and t.data == "attr":
        obj_t, name_tok = t.children
        if isinstance(obj_t, Tree) and obj_t.data == "name" and obj_t.children[0].value == "options":
            return name_tok.value
    return None


def _calls_in(t) -> set:
    """The names of the functions a tree calls."""
    out = set()
    stack = [t]
    while stack:
        t = stack.pop()
        if isinstance(t, Tree):
            if t.data == "call":
                out.add(t.children[0].value)
            stack.extend(t.children)
    return out


def _cycles(functions: dict) -> dict:
    """name -> the shortest chain of calls by which the function calls itself, for each
    function that does (found on the call graph, before any type is known)."""
    calls = {name: [n for n in sorted(_calls_in(f.tree)) if n in functions] for name, f in functions.items()}
    out = {}
    for start in functions:
        paths, seen = [[start]], {start}
        while paths and start not in out:
            nxt = []
            for path in paths:
                for n in calls[path[-1]]:
                    if n == start:
                        out[start] = path
                        break
                    if n not in seen:
                        seen.add(n)
                        nxt.append(path + [n])
                if start in out:
                    break
            paths = nxt
    return out


def _args(args_t) -> list:
    if args_t is None:
        return []
    return list(args_t.children)


_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_HEX = {"x": 2, "u": 4, "U": 8}


def unescape(raw: str, offset: int) -> str:
    """The value of a string literal's text (without its quotes), which starts at `offset`.

    Escapes: \\\\ \\' \\" \\n \\t \\r \\xHH \\uHHHH \\UHHHHHHHH; a code point must be a
    character (not a surrogate, at most 10FFFF).  Anything else is an ExprError there.
    """
    for i, ch in enumerate(raw):
        if "\ud800" <= ch <= "\udfff":
            raise ExprError(f"a string holds an unpaired surrogate U+{ord(ch):04X}, which is not a character",
                            offset + i)
    if "\\" not in raw:
        return raw
    out = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        kind = raw[i + 1] if i + 1 < n else ""
        if kind in _ESCAPES:
            out.append(_ESCAPES[kind])
            i += 2
            continue
        if kind in _HEX:
            digits = raw[i + 2:i + 2 + _HEX[kind]]
            if len(digits) != _HEX[kind] or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise ExprError(f"'\\{kind}' needs {_HEX[kind]} hexadecimal digits, e.g. "
                                f"'\\{kind}{'0041'[-_HEX[kind]:] if _HEX[kind] <= 4 else '00000041'}'", offset + i)
            code = int(digits, 16)
            if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise ExprError(f"'\\{kind}{digits}' is not a character "
                                f"({'an unpaired surrogate' if code <= 0xDFFF else 'beyond U+10FFFF'})", offset + i)
            out.append(chr(code))
            i += 2 + _HEX[kind]
            continue
        shown = repr(kind)[1:-1] if kind else ""
        raise ExprError(f"unknown escape '\\{shown}' in a string; the escapes are "
                        "\\\\ \\' \\\" \\n \\t \\r \\xHH \\uHHHH \\UHHHHHHHH", offset + i)
    return "".join(out)
