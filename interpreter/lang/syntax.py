"""Parsing of the expression language (grammar in data/expr.lark).

An expression is parsed once, at load time, into a lark tree whose nodes carry
their offset in the text (`propagate_positions`), so that later errors can point
at the exact character inside the YAML file.
"""
from __future__ import annotations

from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import InterpreterError
from ..limits import MAX_EXPR_LENGTH
from .tables import expression_parser


_TOKEN_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/', '//' or '%'", "MINUS": "'-'", "IF": "'if'",
    "ELSE": "'else'", "AND": "'and'", "OR": "'or'", "NOT": "'not'", "TRUE": "'true'",
    "FALSE": "'false'", "NULL": "'null'", "$END": "the end", "__ANON_0": "'=>'",
    "__ANON_1": "'??'", "__ANON_2": "'?.'",
}


class ExprError(InterpreterError):
    """A problem inside one expression, at a character offset of its text (and, where the
    bad part is known, `end`: the offset just past it, for a span under it; `hint`, a short
    suggestion).  The checker also makes one of a warning (check/nulls.py), which it notes
    instead of raising."""

    def __init__(self, message: str, offset: int = 0, wrap: bool = True, end: int | None = None,
                 hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.end = end
        self.hint = hint
        # False for a fault of the whole expression (its size, its depth, the work of
        # folding it): one found inside a function's body is reported at the call.
        self.wrap = wrap
        self.function = None        # the function whose body it is in, once known


@lru_cache(maxsize=1)
def parser() -> Lark:
    return expression_parser()


def parse(text) -> Tree:
    """Parse expression text into a tree, or raise ExprError at the bad character."""
    if isinstance(text, bool) or text is None or isinstance(text, (int, float)):
        return Tree("literal", [text])
    if not isinstance(text, str):
        raise ExprError(f"expected an expression, got {type(text).__name__}")
    if len(text) > MAX_EXPR_LENGTH:
        raise ExprError(f"expression is longer than {MAX_EXPR_LENGTH} characters (the limit)", MAX_EXPR_LENGTH)
    if not text.strip():
        raise ExprError("empty expression")
    try:
        return parser().parse(text)
    except UnexpectedInput as e:
        raise ExprError(_syntax_message(e, text), _offset(e), end=_end(e)) from None


def _offset(e: UnexpectedInput) -> int:
    pos = getattr(e, "pos_in_stream", None)
    if pos is None and isinstance(e, UnexpectedToken):
        pos = getattr(e.token, "start_pos", None)
    return pos or 0


def _end(e: UnexpectedInput) -> int | None:
    """The offset just past the unexpected token or character, when lark says where it is."""
    if isinstance(e, UnexpectedCharacters):
        return _offset(e) + 1
    if isinstance(e, UnexpectedToken) and e.token.type != "$END":
        return getattr(e.token, "end_pos", None)
    return None


def _syntax_message(e: UnexpectedInput, text: str) -> str:
    if isinstance(e, UnexpectedCharacters):
        return f"unexpected character {text[e.pos_in_stream]!r}"
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        return "the expression ends too early"
    if isinstance(e, UnexpectedToken) and ("$END" in e.expected or "ADD_OP" in e.expected):
        return f"unexpected {e.token.value!r} after a complete expression (a missing operator or comma?)"
    if isinstance(e, UnexpectedToken):
        expected = sorted({_TOKEN_NAMES.get(t, t) for t in e.expected if not t.startswith("_")})
        shown = ", ".join(expected[:6]) + (", ..." if len(expected) > 6 else "")
        return f"unexpected {e.token.value!r}; expected {shown}"
    return "syntax error"


def end_of(node) -> int | None:
    """Offset just past a tree node or token in the expression text, when it is known."""
    if isinstance(node, Token):
        return node.end_pos
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.end_pos
    return None


def offset_of(node) -> int:
    """Offset of a tree node or token in the expression text."""
    if isinstance(node, Token):
        return node.start_pos or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.start_pos
    return 0


# -- expression text back from a tree, for messages at run time ------------------------
_SIMPLE = {"name", "number", "string", "true", "false", "null", "literal", "call", "attr", "safe_attr", "index",
           "list", "map"}


def unparse(t, params=None) -> str:
    """The text of an expression tree (normalised spacing); `params` maps a function's
    parameter names to the text of their arguments."""
    if isinstance(t, Token):
        return str(t.value)
    if not isinstance(t, Tree):
        return repr(t)
    d, ch = t.data, t.children
    if d == "name":
        name = ch[0].value
        return params.get(name, name) if params else name
    if d in ("number", "string"):
        return ch[0].value
    if d in ("true", "false", "null"):
        return d
    if d == "literal":
        v = ch[0]
        return "null" if v is None else ("true" if v else "false") if isinstance(v, bool) else repr(v)
    if d == "attr":
        return f"{_operand(ch[0], params)}.{ch[1].value}"
    if d == "safe_attr":
        return f"{_operand(ch[0], params)}?.{ch[1].value}"
    if d == "coalesce":
        return f"{_operand(ch[0], params)} ?? {_operand(ch[1], params)}"
    if d == "index":
        return f"{_operand(ch[0], params)}[{unparse(ch[1], params)}]"
    if d == "slice":
        lo, hi = ("" if x is None else unparse(x, params) for x in ch[1:])
        return f"{_operand(ch[0], params)}[{lo}:{hi}]"
    if d == "call":
        args = [] if ch[1] is None else ch[1].children
        return f"{ch[0].value}({', '.join(unparse(a, params) for a in args)})"
    if d == "list":
        args = [] if ch[0] is None else ch[0].children
        return f"[{', '.join(unparse(a, params) for a in args)}]"
    if d == "map":
        pairs = [] if ch[0] is None else ch[0].children
        return "{" + ", ".join(f"{unparse(p.children[0], params)}: {unparse(p.children[1], params)}"
                               for p in pairs) + "}"
    if d == "neg":
        return f"-{_operand(ch[0], params)}"
    if d == "not_":
        return f"not {_operand(ch[0], params)}"
    if d in ("arith", "compare"):
        return f"{_operand(ch[0], params)} {' '.join(str(ch[1]).split())} {_operand(ch[2], params)}"
    if d in ("and_", "or_"):
        return f"{_operand(ch[0], params)} {d[:-1]} {_operand(ch[1], params)}"
    if d == "ifelse":
        return f"{_operand(ch[0], params)} if {_operand(ch[1], params)} else {_operand(ch[2], params)}"
    if d == "lambda_":
        return f"{ch[0].value} => {unparse(ch[1], params)}"
    return "..."


def _operand(t, params) -> str:
    text = unparse(t, params)
    if isinstance(t, Tree) and t.data not in _SIMPLE:
        return f"({text})"
    return text


def free_names(t) -> set:
    """The names an expression tree reads, less those its own `x => ...` bind."""
    if not isinstance(t, Tree):
        return set()
    if t.data == "name":
        return {t.children[0].value}
    if t.data == "lambda_":
        return free_names(t.children[1]) - {t.children[0].value}
    if t.data in ("attr", "safe_attr"):
        return free_names(t.children[0])
    if t.data == "call":
        return free_names(t.children[1])
    out = set()
    for child in t.children:
        out |= free_names(child)
    return out
