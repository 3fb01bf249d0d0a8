"""Parsing of the expression language (grammar in data/expr.lark).

An expression is parsed once, at load time, into a lark tree whose nodes carry
their offset in the text (`propagate_positions`), so that later errors can point
at the exact character inside the YAML file.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

MAX_LENGTH = 4000

_TOKEN_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/', '//' or '%'", "MINUS": "'-'", "IF": "'if'",
    "ELSE": "'else'", "AND": "'and'", "OR": "'or'", "NOT": "'not'", "TRUE": "'true'",
    "FALSE": "'false'", "NULL": "'null'", "$END": "the end", "__ANON_0": "'=>'",
}


class ExprError(Exception):
    """A problem inside one expression, at a character offset of its text."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


@lru_cache(maxsize=1)
def parser() -> Lark:
    grammar = resources.files(__package__).joinpath("data/expr.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def parse(text) -> Tree:
    """Parse expression text into a tree, or raise ExprError at the bad character."""
    if isinstance(text, bool) or text is None or isinstance(text, (int, float)):
        return Tree("literal", [text])
    if not isinstance(text, str):
        raise ExprError(f"expected an expression, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression is longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise ExprError("empty expression")
    try:
        return parser().parse(text)
    except UnexpectedInput as e:
        raise ExprError(_syntax_message(e, text), _offset(e)) from None


def _offset(e: UnexpectedInput) -> int:
    pos = getattr(e, "pos_in_stream", None)
    if pos is None and isinstance(e, UnexpectedToken):
        pos = getattr(e.token, "start_pos", None)
    return pos or 0


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


def offset_of(node) -> int:
    """Offset of a tree node or token in the expression text."""
    if isinstance(node, Token):
        return node.start_pos or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.start_pos
    return 0
